"""Figures drawn from computed or stored results (never re-running a study)."""

from .analysis import plot_delta, plot_score_histogram, plot_threshold_analysis
from .style import look, new_figure, render

__all__ = ["look", "new_figure", "plot_delta", "plot_score_histogram", "plot_threshold_analysis",
           "render"]
