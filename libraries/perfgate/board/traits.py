"""What a board prints and what the gate types at it, read from the board's profile (variables/boards/_defaults.yaml,
the board's own file, the lab's `boards.<board>` overrides): U-Boot and Linux prompts, autoboot strings, markers.
The drivers match the console with the patterns built here, never with strings written in code.

Real traits the patterns allow for (issue 11): a getty prompt with text after it on the same line (Arago 2025's
GPL-3.0 notice, a kernel message), a shell prompt in another directory (`root@am64xx-evm:~/.cache/x#`), autoboot
strings other than TI's (BeaglePlay: `Press SPACE to abort autoboot`), boards with no autoboot line at all (Falcon
mode, an SBL: `uboot.autoboot: []`) whose kernel start is the first kernel line.

The key that stops the autoboot (issue 21): U-Boot built with CONFIG_AUTOBOOT_KEYED stops only for its
AUTOBOOT_STOP_STR, and its prompt (CONFIG_AUTOBOOT_PROMPT) says which: `Press SPACE to abort autoboot in 2 seconds`,
`Hit 's' to stop autoboot`, `Enter "go" to abort autoboot`, `autoboot in 1 seconds (stop with 'd')`. The key is
the board data's when an autoboot entry names it (`{line: ..., key: ...}`), else read from the line (a quoted string
is typed as it is; a key name through `uboot.key_names`: SPACE, ENTER, ESC, Ctrl+C), else `uboot.interrupt` (any key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# a literal prompt `user@host:<dir># ` matches any directory (TI images print the working directory)
USER_HOST_PROMPT = re.compile(r"^(?P<who>[^@\s]+@[^:\s]+):(?P<dir>\S*?)(?P<sign>[#$])\s*$")
KERNEL_MESSAGE = r"\[\s*\d+\.\d+\]"
# the key an autoboot line asks for: `Press SPACE to`, `Hit 's' to`, `Enter "go" to`, `<Esc>`, `(stop with 'd')`
AUTOBOOT_KEY = re.compile(
    r"\b(?:press|hit|type|enter)\s+(?:the\s+)?(?P<key>'[^'\n]+'|\"[^\"\n]+\"|<[^>\n]+>|[^\s,.:;]+)(?:\s+key)?"
    r"(?:\s+or\s+\S+)?\s+to\b|\bstop\s+with\s+(?P<with>'[^'\n]+'|\"[^\"\n]+\")",
    re.I,
)


def _strings(value: object, default: list[str]) -> list[str]:
    if value is None:
        return list(default)
    if isinstance(value, str):
        return [value]
    return [str(v["line"]) if isinstance(v, dict) else str(v) for v in value]  # type: ignore[union-attr]


def _autoboot_keys(value: object) -> dict[str, str]:
    """The keys the board data names for its autoboot lines: entries `{line: ..., key: ...}` of uboot.autoboot."""
    if not isinstance(value, list):
        return {}
    return {str(v["line"]): str(v["key"]) for v in value if isinstance(v, dict) and v.get("key") is not None}


def no_uboot_reason(profile: dict) -> str | None:
    """Why the gate cannot reach a U-Boot prompt on this board (None when it can). `uboot.unreachable`: the lab's
    reason (a LAVA lab boots the board itself)."""
    if (profile.get("uboot") or {}).get("unreachable"):
        return str(profile["uboot"]["unreachable"])
    if _strings((profile.get("uboot") or {}).get("autoboot"), ["x"]):
        return None
    return (f"board {profile.get('name', '?')} prints no U-Boot autoboot line (uboot.autoboot is empty: Falcon mode "
            "or an SBL boots Linux directly), so the gate cannot stop at a U-Boot prompt")  # fmt: skip


def no_console_reason(profile: dict) -> str | None:
    """Why the gate cannot watch the board's console as it boots or sleeps (None when it can): `console.unreachable`,
    the lab's reason (a LAVA lab keeps the console inside its jobs)."""
    reason = (profile.get("console") or {}).get("unreachable") if isinstance(profile.get("console"), dict) else None
    return str(reason) if reason else None


@dataclass
class Traits:
    hostname: str = ""
    uboot_prompt: str = "=> "
    autoboot: list[str] = field(default_factory=lambda: ["Hit any key to stop autoboot"])
    interrupt: str = " "
    autoboot_keys: dict[str, str] = field(default_factory=dict)  # autoboot line -> the key the data names for it
    key_names: dict[str, str] = field(default_factory=dict)  # SPACE -> " ", Ctrl+C -> "\x03" (uboot.key_names)
    boot_command: str = "boot"
    reset_command: str = "reset"
    kernel_start: list[str] = field(default_factory=lambda: ["Starting kernel ..."])
    login_prompt: str = "login:"
    password_prompt: str = "Password:"
    user: str = "root"
    prompt: str = "root@{hostname}:~# "
    prompt_pattern: str | None = None
    sh_prompt: str = "# "
    panic: str = "Kernel panic"
    address_command: str = "ip -4 -o addr show"
    init_sh_bootargs: str = "init=/bin/sh"
    init_sh_setup: list[str] = field(default_factory=list)

    @classmethod
    def from_profile(cls, profile: dict) -> Traits:
        u = profile.get("uboot") or {}
        x = profile.get("linux") or {}
        d = cls()

        def get(section: dict, key: str, default: str) -> str:
            v = section.get(key)
            return default if v is None else str(v)

        return cls(
            hostname=str(profile.get("hostname") or ""),
            uboot_prompt=get(u, "prompt", d.uboot_prompt),
            autoboot=_strings(u.get("autoboot"), d.autoboot),
            interrupt=get(u, "interrupt", d.interrupt),
            autoboot_keys=_autoboot_keys(u.get("autoboot")),
            key_names={str(k).upper(): str(v) for k, v in (u.get("key_names") or {}).items()},
            boot_command=get(u, "boot_command", d.boot_command),
            reset_command=get(u, "reset_command", d.reset_command),
            kernel_start=_strings(x.get("kernel_start"), d.kernel_start),
            login_prompt=get(x, "login_prompt", d.login_prompt),
            password_prompt=get(x, "password_prompt", d.password_prompt),
            user=get(x, "user", d.user),
            prompt=get(x, "prompt", d.prompt),
            prompt_pattern=x.get("prompt_pattern"),
            sh_prompt=get(x, "sh_prompt", d.sh_prompt),
            panic=get(x, "panic", d.panic),
            address_command=get(x, "address_command", d.address_command),
            init_sh_bootargs=get(x, "init_sh_bootargs", d.init_sh_bootargs),
            init_sh_setup=_strings(x.get("init_sh_setup"), []),
        )

    @property
    def has_uboot(self) -> bool:
        """False for a board that prints no autoboot line (Falcon mode, an SBL): no U-Boot prompt to stop at."""
        return bool(self.autoboot)

    def fill(self, text: str) -> str:
        """{hostname} and {init_sh_bootargs} filled in."""
        return text.replace("{hostname}", self.hostname).replace("{init_sh_bootargs}", self.init_sh_bootargs)

    # -- patterns --------------------------------------------------------------------------------
    def prompt_re(self, prompt: str) -> re.Pattern[str]:
        """A prompt at the end of a line, or with a kernel message glued right after it."""
        p = re.escape(self.fill(prompt).rstrip())
        return re.compile(rf"{p}[ \t]*(?=$|\n|{KERNEL_MESSAGE})", re.M)

    def shell_prompt_re(self) -> re.Pattern[str]:
        """The logged-in shell prompt: `linux.prompt_pattern` (a regular expression) when the board data gives one,
        else the literal `linux.prompt` with any working directory (`root@am64xx-evm:~/.cache/x#`); at the end of
        a line or with a kernel message glued after it."""
        if self.prompt_pattern:
            body = self.fill(self.prompt_pattern)
        else:
            literal = self.fill(self.prompt).rstrip()
            m = USER_HOST_PROMPT.match(literal)
            body = rf"{re.escape(m['who'])}:\S*{re.escape(m['sign'])}" if m else re.escape(literal)
        return re.compile(rf"(?:{body})[ \t]*(?=$|\n|{KERNEL_MESSAGE})", re.M)

    def login_prompt_re(self) -> re.Pattern[str]:
        """The getty prompt, whatever follows it on the same line (Arago 2025 prints a GPL-3.0 notice right after
        `am64xx-evm login: `, kernel messages land there too); `Last login:` is not one."""
        p = re.escape(self.fill(self.login_prompt).rstrip())
        return re.compile(rf"(?<!Last ){p}")

    def uboot_prompt_re(self) -> re.Pattern[str]:
        """The U-Boot prompt at the start of a line (a few stray bytes before or after it are tolerated)."""
        p = re.escape(self.uboot_prompt.rstrip())
        return re.compile(rf"(?:^|\n)[^\n]{{0,3}}?{p}[^\n]{{0,16}}$|(?:^|\n){p}(?=[ \t]*$|[ \t]*\n)")

    def interrupt_for(self, line: str) -> tuple[str, str]:
        """The key to type at this autoboot line, and where it came from: the board data's key for the entry the
        line shows, else the key the line names (`Press SPACE`, `Hit 's'`, `Enter "go"`, `(stop with 'd')`), else
        `uboot.interrupt` (the line says "any key", or names none the gate knows)."""
        for entry, key in self.autoboot_keys.items():
            if entry in line:
                return key, f"the board data's key for {entry!r}"
        m = AUTOBOOT_KEY.search(line)
        if m:
            said = m.group("key") or m.group("with")
            bare = said.strip("'\"<>")
            name = re.sub(r"[\s_]+", "", bare).upper().replace("CTRL-", "CTRL+")
            if name in self.key_names:
                return self.key_names[name], f"{said} named in the autoboot line"
            if said[0] in "'\"" and bare:
                return bare, f"{said} named in the autoboot line"
            if len(bare) == 1:
                return bare, f"{said} named in the autoboot line"
        return self.interrupt, "uboot.interrupt"

    def autoboot_re(self) -> re.Pattern[str]:
        return re.compile("|".join(re.escape(a) for a in self.autoboot))

    def kernel_start_re(self) -> re.Pattern[str]:
        """Any of the kernel start markers (`Starting kernel ...`; the first kernel line when U-Boot prints none)."""
        return re.compile("|".join(re.escape(k) for k in self.kernel_start))

    def fail_patterns(self) -> dict[str, str]:
        return {"kernel panic": self.panic}
