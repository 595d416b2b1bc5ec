"""The Piquet discard analyser and the discard study, under heuristic and strong play."""
