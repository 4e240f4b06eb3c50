"""What `glmark2` prints on the simulated board: the renderer for perfgate.tools.glmark2's parser.

Moved here from perfgate/tools/glmark2.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import shlex

# glmark2's default benchmark list (scenes and options as it prints them).
DEFAULT_BENCHMARKS = [
    ("build", "use-vbo=false"), ("build", "use-vbo=true"),
    ("texture", "texture-filter=nearest"), ("texture", "texture-filter=linear"), ("texture", "texture-filter=mipmap"),
    ("shading", "shading=gouraud"), ("shading", "shading=blinn-phong-inf"), ("shading", "shading=phong"),
    ("shading", "shading=cel"),
    ("bump", "bump-render=high-poly"), ("bump", "bump-render=normals"), ("bump", "bump-render=height"),
    ("effect2d", "kernel=0,1,0;1,-4,1;0,1,0;"), ("effect2d", "kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;"),
    ("pulsar", "light=false:quads=5:texture=false"),
    ("desktop", "blur-radius=5:effect=blur:passes=1:separable=true:windows=4"),
    ("desktop", "effect=shadow:windows=4"),
    ("buffer", "columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=map"),
    ("buffer", "columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=subdata"),
    ("buffer", "columns=200:interleave=true:update-dispersion=0.9:update-fraction=0.5:update-method=map"),
    ("ideas", "speed=duration"), ("jellyfish", "<default>"), ("terrain", "<default>"), ("shadow", "<default>"),
    ("refract", "<default>"),
    ("conditionals", "fragment-steps=0:vertex-steps=0"), ("conditionals", "fragment-steps=5:vertex-steps=0"),
    ("conditionals", "fragment-steps=0:vertex-steps=5"),
    ("function", "fragment-complexity=low:fragment-steps=5"),
    ("function", "fragment-complexity=medium:fragment-steps=5"),
    ("loop", "fragment-loop=false:fragment-steps=5:vertex-steps=5"),
    ("loop", "fragment-steps=5:fragment-uniform=false:vertex-steps=5"),
    ("loop", "fragment-steps=5:fragment-uniform=true:vertex-steps=5"),
]  # fmt: skip


RULE = "======================================================="


def _size(command: str) -> tuple[str, str]:
    args = shlex.split(command)
    size, mode = "800x600", "windowed"
    for i, a in enumerate(args):
        if a in ("-s", "--size") and i + 1 < len(args):
            size = args[i + 1]
        elif a.startswith("--size="):
            size = a.split("=", 1)[1]
        elif a == "--fullscreen":
            mode = "fullscreen"
    if "drm" in args[0] if args else False:
        mode = "fullscreen"
    return size, mode


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    score = max(1, round(float(values.get("score", 100.0))))
    size, mode = _size(command)
    # per-benchmark FPS spread around the score; glmark2's score is the integer mean of the FPS values
    weights = [rng.uniform(0.4, 1.8) for _ in DEFAULT_BENCHMARKS]
    scale = score * len(weights) / sum(weights)
    fps = [max(1, round(w * scale)) for w in weights]
    fps[-1] = max(1, fps[-1] + score * len(fps) - sum(fps))  # make the integer mean exact
    lines = [
        RULE,
        "    glmark2 2023.01",
        RULE,
        "    OpenGL Information",
        "    GL_VENDOR:      Imagination Technologies",
        "    GL_RENDERER:    PowerVR Rogue",
        "    GL_VERSION:     OpenGL ES 3.2 build 23.2@6460340",
        "    Surface Config: buf=32 r=8 g=8 b=8 a=8 depth=24 stencil=0 samples=0",
        f"    Surface Size:   {size} {mode}",
        RULE,
    ]
    for (scene, opts), f in zip(DEFAULT_BENCHMARKS, fps, strict=True):
        lines.append(f"[{scene}] {opts}: FPS: {f} FrameTime: {1000.0 / f:.3f} ms")
    lines += [RULE, f"                                  glmark2 Score: {sum(fps) // len(fps)} ", RULE]
    return "\n".join(lines) + "\n"
