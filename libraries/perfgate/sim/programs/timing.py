"""What `time` (the shell's) and `time -v` (GNU time) print on stderr after the command they ran."""

from __future__ import annotations


def report(command: str, secs: float, status: int, verbose: bool) -> str:
    """`secs`: the command's duration in board seconds."""
    if verbose:
        return gnu_time_v(command, secs, status)
    return f"real\t0m{secs:.3f}s\nuser\t0m{secs * 0.9:.3f}s\nsys\t0m{secs * 0.1:.3f}s\n"


def gnu_time_v(command: str, secs: float, status: int) -> str:
    return (
        f'\tCommand being timed: "{command}"\n\tUser time (seconds): {secs * 0.97:.2f}\n'
        f"\tSystem time (seconds): {secs * 0.02:.2f}\n\tPercent of CPU this job got: 99%\n"
        f"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:{secs:05.2f}\n\tMaximum resident set size (kbytes): 5120\n"
        f"\tExit status: {status}\n"
    )
