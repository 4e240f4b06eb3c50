"""The board against itself: a run compared, criterion by criterion, with the board's own baseline run
(perfgate.baseline.rule: the two-sample rule; .config: variables/baseline.yaml; .select: which run is the baseline;
.record: what a run records of it; .changes: where in a board's history a change began; .ab: two builds side by
side)."""
