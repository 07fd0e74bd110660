"""polyreward.rewards"""
