"""polyreward.integrations"""
