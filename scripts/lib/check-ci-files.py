"""The CI files, read as each CI system reads them, for scripts/check-windows-scripts.sh: azure-pipelines.yml (with the
step templates it names) and .github/workflows/ci.yml.

  python3 scripts/lib/check-ci-files.py ROOT OUT [--azure FILE] [--github FILE]

Writes every PowerShell step (Azure `pwsh:`; GitHub `run:` whose shell is pwsh, by `shell:`, `defaults.run.shell`, or a
Windows runner's default) to OUT/NAME-N.ps1 for PowerShell's parser, and checks the structure: both files have the jobs
linux, windows_2022_refs, windows_2025_devdrive and macos (a GitHub matrix entry's `job` names it), on the same images;
every GitHub job has steps, each step exactly one of `uses` and `run`, each action pinned to a version; every matrix value
a step uses is in every entry; every script a step names exists; each job runs the same scripts on both systems, and the
same commands in the same order (each line of a step that names a script, with template parameters and matrix values put
in, and the agent's temporary folder named alike); and in the Windows and macOS jobs every step after the first that runs
a script runs even when one before it failed (succeededOrFailed() or always() on Azure, !cancelled() or always() on
GitHub), so that a first run's one failure does not hide the rest.
Prints one line a check ("ok: ..." or "FAILED: ..."); exits 1 when any failed.
"""
import os
import re
import sys

import yaml

JOBS = {"linux": "ubuntu-24.04", "windows_2022_refs": "windows-2022", "windows_2025_devdrive": "windows-2025", "macos": "macos-15"}
# Jobs whose steps each run even after one before them failed (a first run's one difference must not hide the rest).
KEEP_GOING = {"windows_2022_refs", "windows_2025_devdrive", "macos"}
# The agent's temporary folder: Azure's and GitHub's names for it.
TEMP_FOLDER = re.compile(r"\$(?:AGENT_TEMPDIRECTORY|RUNNER_TEMP)\b")
ACTIONS = {"actions/checkout", "actions/setup-dotnet", "actions/upload-artifact"}
SCRIPT = re.compile(r"(?<![\w./-])((?:scripts|\.ci)/[\w./-]+\.(?:sh|ps1|psm1|py|yml)|\.ci/run)\b")
EXPRESSION = re.compile(r"\$\{\{\s*(?:parameters|matrix)\.([\w-]+)\s*\}\}")

args = sys.argv[1:]
root, out = args[0], args[1]
azure_file, github_file = "azure-pipelines.yml", ".github/workflows/ci.yml"
for i, arg in enumerate(args):
    if arg == "--azure":
        azure_file = args[i + 1]
    if arg == "--github":
        github_file = args[i + 1]
failed = 0


def check(ok, what):
    global failed
    print(("  ok: " if ok else "  FAILED: ") + what)
    failed += 0 if ok else 1


def load(name):
    with open(name if os.path.isabs(name) else os.path.join(root, name)) as f:
        return yaml.safe_load(f)


def write_step(label, n, title, script):
    # A template or matrix expression becomes a word (its name); Azure's and GitHub's own variables are read as
    # $env:NAME by the scripts, which PowerShell parses as it stands.
    text = EXPRESSION.sub(lambda m: m.group(1).replace("-", ""), script)
    with open(os.path.join(out, f"{label}-{n}.ps1"), "w") as f:
        f.write(f"# {label}: {title}\n{text}")


def scripts_in(text):
    return set(SCRIPT.findall(text or ""))


# Azure Pipelines: the test stage's jobs, each with its steps and those of the templates it names.
azure = load(azure_file)
azure_jobs = {}
pwsh_count = 0
for stage in azure.get("stages", []):
    for job in stage.get("jobs", []):
        if stage.get("stage") != "test_and_measure":
            continue
        steps = []
        values = {}  # each step's template parameters, by the step's id
        for step in job.get("steps", []):
            if "template" in step:
                template = load(step["template"])
                for inner in template.get("steps", []):
                    steps.append(inner)
                    values[id(inner)] = step.get("parameters", {})
                check(all(p.get("name") in step.get("parameters", {}) for p in template.get("parameters", [])),
                      f"azure: {job['job']} gives {step['template']} every parameter it declares")
            else:
                steps.append(step)
        azure_jobs[job["job"]] = (job.get("pool", {}).get("vmImage"), steps, values)
for name, (image, steps, _) in azure_jobs.items():
    for step in steps:
        if isinstance(step.get("pwsh"), str):
            pwsh_count += 1
            write_step("azure", pwsh_count, step.get("displayName", name), step["pwsh"])
check(set(azure_jobs) == set(JOBS), f"azure: the test stage's jobs are {sorted(JOBS)} (found {sorted(azure_jobs)})")
for name, image in JOBS.items():
    check(str(azure_jobs.get(name, (None,))[0]).lower() == image, f"azure: {name} runs on {image}")

# GitHub Actions: each job, a matrix job once per entry that names its `job`.
github = load(github_file)
on = github.get("on", github.get(True))  # YAML 1.1 reads a bare `on` key as true
check(isinstance(on, dict) and "push" in on and "pull_request" in on, "github: runs on push and pull_request")
github_jobs = {}
for job_id, job in (github.get("jobs") or {}).items():
    entries = (job.get("strategy", {}).get("matrix", {}) or {}).get("include") or [None]
    steps = job.get("steps")
    check(isinstance(steps, list) and len(steps) > 0, f"github: {job_id} has steps")
    steps = steps if isinstance(steps, list) else []
    for entry in entries:
        name = entry["job"] if entry else job_id
        used = set()

        def resolve(text):
            used.update(EXPRESSION.findall(text or ""))
            return EXPRESSION.sub(lambda m: str((entry or {}).get(m.group(1), m.group(0))), text) if entry else text

        image = resolve(str(job.get("runs-on", "")))
        github_jobs[name] = (image, steps, entry or {})
        default_shell = (((job.get("defaults") or {}).get("run") or {}).get("shell")
                         or ((github.get("defaults") or {}).get("run") or {}).get("shell")
                         or ("pwsh" if image.startswith("windows") else "bash"))
        problems = []
        for n, step in enumerate(steps):
            label = f"github {name} step {n + 1}"
            if ("uses" in step) == ("run" in step):
                problems.append(f"step {n + 1} has {'both' if 'uses' in step else 'neither'} of uses and run")
            if "uses" in step:
                action, _, version = step["uses"].partition("@")
                if action not in ACTIONS or version == "":
                    problems.append(f"step {n + 1} uses {step['uses']}, not one of {sorted(ACTIONS)} pinned to a version")
                resolve(str(step.get("with", "")))
            if isinstance(step.get("run"), str):
                resolve(step["run"])
                if step.get("shell", default_shell) == "pwsh":
                    pwsh_count += 1
                    write_step(f"github-{name}", n + 1, step.get("name", label), step["run"])
        check(not problems, f"github: {name}'s {len(steps)} steps each have one of uses and run, each action known and pinned"
              + (f" ({'; '.join(problems)})" if problems else ""))
        if entry:
            missing = sorted(m for m in used if m not in entry)
            check(not missing, f"github: {name}'s matrix entry has every value its steps use (missing: {missing})")
check(set(github_jobs) == set(JOBS), f"github: the jobs are {sorted(JOBS)} (found {sorted(github_jobs)})")
for name, image in JOBS.items():
    check(str(github_jobs.get(name, (None,))[0]).lower() == image, f"github: {name} runs on {image} (found {github_jobs.get(name, (None,))[0]})")


# Every script a step names exists, and each job runs the same scripts on both systems.
def step_text(step):
    return " ".join(str(step.get(key, "")) for key in ("pwsh", "bash", "script", "run"))


for name in sorted(JOBS):
    azure_scripts = set().union(*[scripts_in(step_text(s)) for s in azure_jobs.get(name, (None, [], {}))[1]] or [set()])
    github_scripts = set().union(*[scripts_in(step_text(s)) for s in github_jobs.get(name, (None, [], {}))[1]] or [set()])
    for script in sorted(azure_scripts | github_scripts):
        check(os.path.isfile(os.path.join(root, script)), f"{name}: {script}, which a step runs, exists")
    check(azure_scripts == github_scripts and azure_scripts,
          f"{name}: both CI systems run the same scripts ({', '.join(sorted(azure_scripts))}"
          + ("" if azure_scripts == github_scripts else f"; only azure: {sorted(azure_scripts - github_scripts)}, only github: {sorted(github_scripts - azure_scripts)}") + ")")
check(pwsh_count > 0, f"{pwsh_count} PowerShell steps written for the parser")


def commands(steps, values_of):
    """Each line of the steps that names a script, with its template parameters or matrix values put in and the
    temporary folder named alike, whitespace collapsed: what a job runs, in order."""
    lines = []
    for step in steps:
        values = values_of(step)
        text = EXPRESSION.sub(lambda m: str(values.get(m.group(1), m.group(0))), step_text(step))
        for line in text.splitlines():
            if scripts_in(line):
                lines.append(" ".join(TEMP_FOLDER.sub("$TEMP", line).split()))
    return lines


def keeps_going(step, system):
    """Whether a step runs even after one before it failed (and not when the run was cancelled, on GitHub)."""
    if system == "azure":
        return str(step.get("condition", "")).replace(" ", "") in ("succeededOrFailed()", "always()")
    condition = str(step.get("if", "")).replace(" ", "")
    return "!cancelled()" in condition or "always()" in condition


for name in sorted(JOBS):
    azure_steps, azure_values = (azure_jobs.get(name) or (None, [], {}))[1:]
    github_steps, entry = (github_jobs.get(name) or (None, [], {}))[1:]
    azure_commands = commands(azure_steps, lambda step: azure_values.get(id(step), {}))
    github_commands = commands(github_steps, lambda step: entry)
    differing = [f"azure: {a!r}, github: {g!r}" for a, g in zip(azure_commands, github_commands) if a != g]
    if len(azure_commands) != len(github_commands):
        differing.append(f"azure runs {len(azure_commands)} commands, github {len(github_commands)}")
    check(azure_commands and not differing,
          f"{name}: both CI systems run the same {len(azure_commands)} commands in the same order"
          + (f" ({'; '.join(differing)})" if differing else ""))
    if name in KEEP_GOING:
        for system, steps in (("azure", azure_steps), ("github", github_steps)):
            first = next((i for i, step in enumerate(steps) if scripts_in(step_text(step))), len(steps))
            stopping = [str(step.get("displayName", step.get("name", step.get("uses", "?")))) for step in steps[first + 1:] if not keeps_going(step, system)]
            check(not stopping, f"{system}: {name}'s steps after its first script run even after one failed"
                  + (f" (not: {'; '.join(stopping)})" if stopping else ""))
sys.exit(1 if failed else 0)
