"""enhancements"""
