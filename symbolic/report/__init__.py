"""Text, JSON and plots of results."""
