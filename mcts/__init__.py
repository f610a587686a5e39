"""mcts"""
