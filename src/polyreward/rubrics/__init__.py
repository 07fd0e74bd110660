"""polyreward.rubrics"""
