"""polyreward.combiners"""
