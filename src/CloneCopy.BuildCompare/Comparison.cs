using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The comparison itself: restore once, one warm-up build each way, then N clean builds each way, alternating
/// which goes first, each measured the same way. Between builds, and at the end whatever happens, the
/// repository goes back to the state it was in (see <see cref="RepositorySnapshot"/>).
/// </summary>
public sealed class Comparison(CompareOptions options, IProgressDisplay progress)
{
    private readonly List<BuildRun> _builds = [];

    public async Task<ComparisonResult> RunAsync(CancellationToken cancellation)
    {
        string target = Path.GetFullPath(options.Target);
        if (!File.Exists(target) && !Directory.Exists(target))
        {
            throw new CompareFailure($"No such solution or project: {options.Target}");
        }

        string root = File.Exists(target) ? Path.GetDirectoryName(target)! : target;
        string output = Path.GetFullPath(options.OutputDirectory);
        string logs = Path.Combine(output, "logs");
        OutputFolder.Prepare(output, options.Force);
        Directory.CreateDirectory(logs);
        string? excluded = output.StartsWith(root + Path.DirectorySeparatorChar, StringComparison.Ordinal) ? output : null;

        var earlier = RepositorySnapshot.EarlierBuildOutputs(root, excluded);
        if (earlier.Count > 0)
        {
            throw new CompareFailure($"{root} has outputs of an earlier build ({string.Join(", ", earlier.Take(3).Select(p => Path.GetRelativePath(root, p)))}{(earlier.Count > 3 ? ", …" : string.Empty)}). Clean builds need them gone: delete the bin and obj folders (git clean -xdf) and run again. This tool deletes only what it created.");
        }

        var injection = SdkInjection.Prepare(options.SdkSource, output);
        var asFound = RepositorySnapshot.Take(root, excluded);
        try
        {
            var started = DateTimeOffset.Now;
            progress.Step($"restoring {Path.GetFileName(target)} (not timed)");
            var restore = await DotnetRunner.RunAsync(root, ["restore", target, .. RestoreArguments.From(options.BuildArguments)], Path.Combine(logs, "restore.log"), cancellation);
            if (restore.ExitCode != 0)
            {
                throw Failed($"`dotnet restore {Path.GetFileName(target)}` failed (exit code {restore.ExitCode})", restore.LogPath);
            }

            var restored = RepositorySnapshot.Take(root, excluded);
            await WarmUpAsync(target, root, restored, injection, logs, cancellation);

            var fingerprints = new Dictionary<BuildWay, OutputFingerprint>();
            int total = options.Runs * 2;
            for (int run = 0; run < options.Runs; run++)
            {
                BuildWay[] order = run % 2 == 0 ? [BuildWay.CloneCopy, BuildWay.MSBuildCopy] : [BuildWay.MSBuildCopy, BuildWay.CloneCopy];
                foreach (var way in order)
                {
                    int sequence = _builds.Count(b => !b.WarmUp) + 1;
                    var build = await BuildAsync(target, root, restored, injection, way, sequence, $"build {sequence} of {total}", logs, cancellation);
                    if (build.Outcome.ExitCode != 0)
                    {
                        throw Failed($"Clean build {sequence} of {total} ({way.Title()}) failed after the warm-up builds passed (exit code {build.Outcome.ExitCode}): the build is not reliable, or it broke while this ran", build.Outcome.LogPath);
                    }

                    if (run == options.Runs - 1)
                    {
                        fingerprints[way] = OutputFingerprint.Of(root, restored.NewFiles());
                    }

                    RemoveNew(restored);
                }
            }

            var differences = fingerprints[BuildWay.CloneCopy].Differences(fingerprints[BuildWay.MSBuildCopy])
                .Select(d => d.Replace("only in the first", "only with CloneCopy", StringComparison.Ordinal).Replace("only in the second", "only with MSBuild's Copy", StringComparison.Ordinal))
                .ToList();
            var caches = differences.Where(IsMSBuildCache).ToList();
            return new ComparisonResult(target, root, FilesystemUsage.Format(root), options.Runs, options.BuildArguments, CloneCopySource(injection), started,
                _builds, fingerprints[BuildWay.CloneCopy].Count, differences.Except(caches).ToList(), caches);
        }
        finally
        {
            progress.Step("putting the repository back as it was");
            RemoveNew(asFound);
        }
    }

    /// <summary>Takes away what a build (or the whole run) added; says where any new file that is not a build output went.</summary>
    private void RemoveNew(RepositorySnapshot snapshot)
    {
        string setAside = Path.Combine(Path.GetFullPath(options.OutputDirectory), "set-aside");
        var moved = snapshot.RemoveNew(setAside);
        if (moved.Count > 0)
        {
            progress.Step($"{moved.Count} new file(s) outside bin and obj folders moved to {setAside} (not deleted: they may be yours)");
        }
    }

    private async Task WarmUpAsync(string target, string root, RepositorySnapshot restored, SdkInjection injection, string logs, CancellationToken cancellation)
    {
        // Both warm-ups run even when the first fails, so that the message can say whether the build fails one way or both.
        var outcomes = new Dictionary<BuildWay, DotnetRunner.Outcome>();
        foreach (var way in new[] { BuildWay.CloneCopy, BuildWay.MSBuildCopy })
        {
            var build = await BuildAsync(target, root, restored, injection, way, 0, "warm-up", logs, cancellation);
            outcomes[way] = build.Outcome;
            RemoveNew(restored);
        }

        var cc = outcomes[BuildWay.CloneCopy];
        var ms = outcomes[BuildWay.MSBuildCopy];
        if (cc.ExitCode != 0 && ms.ExitCode != 0)
        {
            throw Failed($"{Path.GetFileName(target)} does not build, with CloneCopy or with MSBuild's Copy: nothing to compare", ms.LogPath);
        }

        if (cc.ExitCode != 0)
        {
            throw Failed($"The build fails only with CloneCopy (MSBuild's Copy passed, log: {ms.LogPath})", cc.LogPath);
        }

        if (ms.ExitCode != 0)
        {
            throw Failed($"The build fails only with MSBuild's Copy, DisableCloneCopy=true (CloneCopy passed, log: {cc.LogPath})", ms.LogPath);
        }
    }

    private async Task<(BuildRun Run, DotnetRunner.Outcome Outcome)> BuildAsync(
        string target, string root, RepositorySnapshot restored, SdkInjection injection, BuildWay way, int sequence, string label, string logs, CancellationToken cancellation)
    {
        bool warmUp = sequence == 0;
        string log = Path.Combine(logs, warmUp ? $"warm-up-{way.Key()}.log" : $"build-{sequence:00}-{way.Key()}.log");
        string[] arguments =
        [
            "build", target, "--no-restore", "-nologo", "-v:n", "-clp:PerformanceSummary",
            .. injection.PropertiesFor(way),
            .. options.BuildArguments,
        ];
        progress.BuildStarting(label, way);
        long before = FilesystemUsage.UsedBytes(root);
        var outcome = await DotnetRunner.RunAsync(root, arguments, log, cancellation);
        long after = FilesystemUsage.UsedBytes(root);
        var files = restored.NewFiles();
        string[] lines = File.ReadAllLines(log);
        var run = new BuildRun(
            sequence,
            way,
            warmUp,
            outcome.Elapsed.TotalSeconds,
            BuildLogReader.ReadCopyTaskMilliseconds(lines),
            after - before,
            SharedExtents.Measure(files),
            files.Count,
            BuildLogReader.ReadSummary(lines),
            Path.GetRelativePath(Path.GetDirectoryName(logs)!, log));
        if (outcome.ExitCode == 0)
        {
            _builds.Add(run);
            progress.BuildFinished(label, run);
        }

        return (run, outcome);
    }

    /// <summary>An intermediate cache file of MSBuild's ("obj/Debug/net10.0/App.csproj.AssemblyReference.cache: bytes differ").</summary>
    private static bool IsMSBuildCache(string difference)
    {
        string path = difference[..difference.LastIndexOf(": ", StringComparison.Ordinal)];
        return path.EndsWith(".cache", StringComparison.Ordinal) && path.Split('/').Contains("obj") && difference.EndsWith("bytes differ", StringComparison.Ordinal);
    }

    private string CloneCopySource(SdkInjection injection)
    {
        var lines = File.ReadAllLines(Path.Combine(Path.GetFullPath(options.OutputDirectory), _builds.Last(b => b.Way == BuildWay.CloneCopy).Log));
        var injected = BuildLogReader.ProjectsSaying(lines, SdkInjection.InjectedLine);
        var own = BuildLogReader.ProjectsSaying(lines, SdkInjection.OwnLine);
        return (injected.Count, own.Count) switch
        {
            (> 0, 0) => $"injected ({injection.SdkDescription}) into {injected.Count} projects",
            (0, > 0) => $"the repository's own, in {own.Count} projects (compared against DisableCloneCopy=true)",
            (> 0, > 0) => $"the repository's own in {own.Count} projects, injected ({injection.SdkDescription}) into {injected.Count}",
            _ => "no project reported which (no project built the Build target?)",
        };
    }

    private static CompareFailure Failed(string what, string log)
    {
        var errors = BuildLogReader.Errors(File.ReadAllLines(log));
        string detail = errors.Count == 0 ? string.Empty : Environment.NewLine + string.Join(Environment.NewLine, errors.Select(e => "  " + e));
        return new CompareFailure(what + "." + detail, log);
    }
}
