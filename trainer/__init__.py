"""polyreward.trainer"""
