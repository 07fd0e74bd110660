"""polyreward.verifiers"""
