"""perfgate: a Robot Framework release gate built from TI Processor SDK Linux performance guides."""

__version__ = "0.1.0"
