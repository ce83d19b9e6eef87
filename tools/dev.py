"""Set up the project's virtual environment in the clone, and run from it.

    python3 tools/dev.py play [ARGS]     # play the rite in a window (main.py play ARGS)
    python3 tools/dev.py test [ARGS]     # run the tests, headless (pytest ARGS)
    python3 tools/dev.py test --quick    # the same without the tests marked slow (-m "not slow")
    python3 tools/dev.py COMMAND [ARGS]  # any other command of main.py: shot, plate, video ...
    python3 tools/dev.py --fresh ...       # delete .venv first and make it again (CI does)

The first run makes `.venv` in the clone and installs the project into it with pip (`-e .`;
`-e ".[test]"` for the tests, `-e ".[video]"` for video); later runs reuse it, and install again
only when pyproject.toml has changed since (its hash is kept in .venv) or a command needs an
extra that is not there yet. Nothing is installed outside .venv, so Debian's externally managed
python3 is fine; where its venv module lacks ensurepip (no python3-venv package), the venv is
made without pip and the system's pip (python3-pip, 22.3 or newer) installs into it.

Standard library only, and written so that an old Python can read it far enough to say it is
too old in one line: ASCII, and no syntax newer than Python 3.4's (so no f-strings).
"""
# ruff: noqa: UP031 (%-formatting on purpose: see above)
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

NEED = (3, 10)


def fail(message, code=1):
    sys.stderr.write("error: %s\n" % message)
    sys.exit(code)


def say(message):
    sys.stderr.write("[dev] %s\n" % message)
    sys.stderr.flush()


if sys.version_info[:2] < NEED:
    fail("this project needs Python %d.%d or newer; %s is Python %d.%d (install a newer python3 "
         "and run this script with it)" % (NEED + (sys.executable or "python",)
                                           + tuple(sys.version_info[:2])))

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
STAMP = os.path.join(VENV, "xiangshe-install.json")  # what the last install was
HASH_KEY = "pyproject.toml sha256"
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
# the packages whose versions are printed after an install (what CI and a bug report need)
KEY_PACKAGES = ("pygame-ce", "numpy", "PyYAML", "jsonschema", "fonttools", "pytest", "pytest-xdist",
                "hypothesis", "resvg-py", "imageio-ffmpeg")
USAGE = """usage: python3 tools/dev.py [--fresh] COMMAND [ARGS]

  play [ARGS]      play the rite in a window (ARGS go to `main.py play`)
  test [ARGS]      run the tests, headless (ARGS go to pytest, e.g. -k yamlsrc)
  test --quick     leave out the tests marked slow (whole-rite sweeps): pytest -m "not slow"
  COMMAND [ARGS]   any other command of main.py (shot, state, plate, atlas, sheet, video, ...)
  --fresh          delete .venv and make it again first

Each makes .venv in the clone (or reuses it), installs the project into it when needed, and
runs from it. `python3 tools/dev.py shot --help` shows a command's own options."""




def venv_python():
    if os.name == "nt":
        return os.path.join(VENV, "Scripts", "python.exe")
    return os.path.join(VENV, "bin", "python")


def run(cmd, **kw):
    return subprocess.run(cmd, **kw).returncode


def quiet(cmd):
    """(returncode, output) of cmd, its output captured."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    except OSError as e:
        return 127, str(e)
    return p.returncode, p.stdout


def venv_version():
    """The venv's Python as (major, minor), or None when there is none or it does not run."""
    py = venv_python()
    if not os.path.exists(py):
        return None
    code, out = quiet([py, "-c", "import sys; print('%d %d' % sys.version_info[:2])"])
    if code != 0:
        return None
    try:
        major, minor = out.split()[-2:]
        return int(major), int(minor)
    except ValueError:
        return None


def system_pip():
    """The pip of the Python running this script, if it can install into another environment
    (`pip --python`, pip 22.3 or newer); else None."""
    code, out = quiet([sys.executable, "-m", "pip", "--version"])
    if code != 0:
        return None
    try:
        version = tuple(int(x) for x in out.split()[1].split(".")[:2])
    except (IndexError, ValueError):
        return None
    return [sys.executable, "-m", "pip"] if version >= (22, 3) else None


def make_venv():
    """Make .venv with the Python running this script; with pip if its venv module can."""
    try:
        import venv  # noqa: F401 (only asking whether it is there)
    except ImportError:
        fail("%s has no venv module; on Debian or Ubuntu: sudo apt-get install python3-venv"
             % sys.executable)
    say("making the virtual environment %s (Python %d.%d)" % (
        os.path.relpath(VENV), sys.version_info[0], sys.version_info[1]))
    code, out = quiet([sys.executable, "-m", "venv", VENV])
    if code == 0:
        return
    # Debian's python3 without python3-venv has no ensurepip: make it without pip, and let the
    # system's pip install into it
    shutil.rmtree(VENV, ignore_errors=True)
    if system_pip() is not None:
        code2, out2 = quiet([sys.executable, "-m", "venv", "--without-pip", VENV])
        if code2 == 0:
            say("(this Python's venv cannot add pip; the system's pip will install into .venv)")
            return
        out = out2
        shutil.rmtree(VENV, ignore_errors=True)
    sys.stderr.write(out)
    fail("could not make a virtual environment with pip; on Debian or Ubuntu: "
         "sudo apt-get install python3-venv")


def pip_command():
    py = venv_python()
    if quiet([py, "-m", "pip", "--version"])[0] == 0:
        return [py, "-m", "pip"]
    pip = system_pip()
    if pip is None:
        fail(".venv has no pip and the system's pip cannot install into it; delete .venv, or "
             "on Debian or Ubuntu: sudo apt-get install python3-venv")
    return pip + ["--python", py]


def pyproject_hash():
    with open(PYPROJECT, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_stamp():
    try:
        with open(STAMP, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def covered(extras):
    """What an install with these extras provides ([test] holds everything [video] does)."""
    have = set(extras)
    if "test" in have:
        have.add("video")
    return have


def install(extras):
    """pip install -e ".[extras]" into .venv, showing pip's own progress, and keep the stamp."""
    if os.path.exists(STAMP):
        os.remove(STAMP)  # an install that fails or is interrupted leaves no stamp behind
    spec = "[%s]" % ",".join(sorted(extras)) if extras else ""
    cmd = pip_command() + ["install", "--disable-pip-version-check", "-e", ROOT + spec]
    say('installing the project into .venv: pip install -e ".%s"' % spec)
    t0 = time.time()
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PIP_REQUIRE_VIRTUALENV", None)
    # pip's output goes to stderr, so that what the command prints (state --json > f) stays clean
    code = run(cmd, env=env, stdout=sys.stderr)
    if code != 0:
        fail("pip could not install the project (its messages are above); run the command "
             "again once the cause is fixed", code)
    with open(STAMP, "w", encoding="utf-8") as f:
        json.dump({HASH_KEY: pyproject_hash(), "extras": sorted(extras)}, f)
    say("installed in %.0f s: %s" % (time.time() - t0, versions()))


def versions():
    code, out = quiet([venv_python(), "-c",
                       "import importlib.metadata as m, sys\n"
                       "for n in sys.argv[1:]:\n"
                       "    try: print('%s==%s' % (n, m.version(n)))\n"
                       "    except m.PackageNotFoundError: pass\n"] + list(KEY_PACKAGES))
    return " ".join(out.split()) if code == 0 else "(versions unknown)"


class Locked(object):
    """Only one dev.py at a time makes or installs into .venv (`play` and `video` started
    together): the other waits for it, then finds .venv up to date (.venv.lock in the clone,
    an OS lock the system lets go of when the process ends, however it ends)."""

    def __init__(self, path):
        self.path, self.f = path, None

    def __enter__(self):
        self.f = open(self.path, "a+")
        try:
            self._lock(blocking=False)
        except OSError:
            say("another tools/dev.py is making .venv; waiting for it")
            self._lock(blocking=True)
        return self

    def _lock(self, blocking):
        if os.name == "nt":
            import msvcrt
            mode = msvcrt.LK_LOCK if blocking else msvcrt.LK_NBLCK
            self.f.seek(0)
            msvcrt.locking(self.f.fileno(), mode, 1)
        else:
            import fcntl
            fcntl.flock(self.f.fileno(), fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))

    def __exit__(self, *exc):
        try:
            if os.name == "nt":
                import msvcrt
                self.f.seek(0)
                msvcrt.locking(self.f.fileno(), msvcrt.LK_UNLCK, 1)
            else:
                import fcntl
                fcntl.flock(self.f.fileno(), fcntl.LOCK_UN)
        finally:
            self.f.close()
        return False


def ensure(extras, fresh=False):
    """.venv exists, runs, and holds the project with these extras, as pyproject.toml says;
    one dev.py at a time (Locked)."""
    with Locked(VENV + ".lock"):
        _ensure(extras, fresh)


def _ensure(extras, fresh=False):
    if fresh and os.path.exists(VENV):
        say("deleting .venv (--fresh)")
        shutil.rmtree(VENV)
    have = venv_version()
    if have is None and os.path.exists(VENV):
        say(".venv is there but its Python does not run; making it again")
        shutil.rmtree(VENV)
    elif have is not None and have < NEED:
        say(".venv holds Python %d.%d; making it again with this one" % have)
        shutil.rmtree(VENV)
    if not os.path.exists(VENV):
        make_venv()
    stamp = read_stamp()
    digest = pyproject_hash()
    want = to_install(stamp, digest, extras)
    if want is not None:
        if stamp and stamp.get(HASH_KEY) != digest:
            say("pyproject.toml has changed since the last install: installing again")
        install(want)


def to_install(stamp, digest, extras):
    """The extras to install now (a set, perhaps empty), or None when .venv is up to date: the
    stamp of the last install names this pyproject.toml's hash and extras that cover these.
    An install keeps the extras installed before."""
    had = set(stamp.get("extras", []))
    if stamp.get(HASH_KEY) == digest and set(extras) <= covered(had):
        return None
    return had | set(extras)


def pytest_args(args):
    """pytest's arguments for `test ARGS`: --quick (anywhere) becomes -m "not slow", first, so
    that an -m of one's own among ARGS still wins. A run of the whole folder (no ARGS but --quick)
    runs on every core (pytest-xdist's -n auto); tests named in ARGS run in one process, which
    starts sooner."""
    rest = [a for a in args if a != "--quick"]
    out = ["-m", "not slow"] if "--quick" in args else []
    if not rest:
        out += ["-n", "auto"]
    return out + rest


def test_env(environ, quick=False):
    """The environment the tests run in: headless SDL, and Python's bytecode (pytest's rewritten
    test modules among it) kept between runs under the user's cache folder, outside the clone
    (PYTHONPYCACHEPREFIX, $XDG_CACHE_HOME/xiangshe/pycache or ~/.cache/xiangshe/pycache; a
    prefix of one's own is kept), even where PYTHONDONTWRITEBYTECODE is set: without it every
    pytest-xdist worker and every command a test runs compiles all it imports again (about 9 s
    of CPU each at the start of a run)."""
    env = dict(environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not env.get("PYTHONPYCACHEPREFIX"):
        env["PYTHONPYCACHEPREFIX"] = os.path.join(base, "xiangshe", "pycache")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if quick and not env.get("XIANGSHE_TEST_CACHE"):
        # the quick tier keeps the tests' compile cache between runs too (tests/conftest.py's
        # _parse_cache; keyed by the files' bytes and the program's code, so never stale); the
        # full tier, as CI runs it, starts each run from an empty one
        env["XIANGSHE_TEST_CACHE"] = os.path.join(base, "xiangshe", "test-cache")
    return env


def execute(cmd, cwd=None, env=None):
    """Become cmd (so Ctrl+C, the exit status and the terminal are its own)."""
    if cwd:
        os.chdir(cwd)
    env = env if env is not None else os.environ
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "nt":
        sys.exit(subprocess.run(cmd, env=env).returncode)
    os.execve(cmd[0], cmd, env)


def main(argv):
    fresh = False
    while argv and argv[0] in ("--fresh", "-h", "--help"):
        if argv[0] != "--fresh":
            print(USAGE)
            return 0
        fresh, argv = True, argv[1:]
    if not argv:
        sys.stderr.write(USAGE + "\n")
        return 2
    py = venv_python()
    if argv[0] == "test":
        ensure(["test"], fresh)
        execute([py, "-m", "pytest"] + pytest_args(argv[1:]), cwd=ROOT,
                env=test_env(os.environ, quick="--quick" in argv[1:]))
    # main.py takes its options before the command too (--reading NAME check)
    ensure(["video"] if "video" in argv else [], fresh)
    execute([py, os.path.join(ROOT, "main.py")] + argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
