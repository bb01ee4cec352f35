using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// On real ReFS: a file written moments ago and at once cloned many ways in parallel through CloneCopy's Copy, as a build
/// with -m clones a new obj\x.dll into many bin folders (microsoft/CopyOnWrite #12: "success is returned but ... the
/// destination file having all zeroes"; git-lfs #6312). The volume is trusted first, and the CI guard's path is taken
/// (CloneCopy's own clone for every file, also where CopyFile clones by itself: Windows Server 2025), so every clone is
/// CloneCopy's and only the fresh-source mitigation (its mutex, its whole read-back) stands between a wrong clone and the
/// file. A second process copying and reading the source meanwhile must never be refused. The variant with the mitigation
/// off (CLONECOPY_TEST_FRESH_SOURCES=unguarded, trait FreshSources=Unguarded) reports whether zeros appear on the image
/// and fails only if the switch did not take effect or the build failed.
/// </summary>
[Trait("Needs", "RealRefs")]
public sealed class FreshSourceParallelCloneTests : IDisposable
{
    private const int Tasks = 8;
    private const int DestinationsPerTask = 8;
    private readonly string _folder = RealRefs.NewFolder("fresh-parallel");

    public void Dispose() => RealRefs.Remove(_folder);

    [RealRefsFact]
    public void A_fresh_file_cloned_at_once_in_parallel_gives_every_clone_the_source_s_SHA_256()
    {
        var calls = new CountedCalls();
        var diagnostics = new EngineDiagnostics();
        ClonerTransfer transfer = RealRefs.TrustedTransfer(_folder, diagnostics, calls.Seam, clonesItself: true);
        byte[] bytes = WriteFresh(out string source);

        TestBuildEngine engine = CloneInParallel(transfer, diagnostics, source);

        string expected = Convert.ToHexString(SHA256.HashData(bytes));
        Assert.Equal(expected, RealRefs.Sha256(source));
        Assert.All(Destinations(), clone => Assert.True(RealRefs.Sha256(clone) == expected, $"{clone} does not hold the source's bytes"));
        Assert.DoesNotContain(engine.Warnings, w => w.Code == "CLC008");
        Assert.True(calls.Made("CreateMutex") > 0, "the fresh source's clones were not serialized: " + calls);
        Assert.True(calls.Failed("WaitForMutex", "ReleaseMutex") == 0, "a mutex call failed: " + calls);
        Assert.Equal(0, calls.Made("FlushFileBuffers"));
    }

    [RealRefsFact]
    public void While_this_process_clones_a_fresh_file_another_process_copies_and_reads_it_without_a_sharing_violation()
    {
        // The other process is Windows PowerShell calling File.Copy (CopyFile: the source opened for reading, sharing read
        // and delete) and File.OpenRead (sharing read only), as MSBuild's Copy in another node and a compiler would. A
        // writable handle on the source in this process, however short, refuses both.
        var diagnostics = new EngineDiagnostics();
        ClonerTransfer transfer = RealRefs.TrustedTransfer(_folder, diagnostics, clonesItself: true);
        byte[] bytes = WriteFresh(out string source);
        string peer = Directory.CreateDirectory(Path.Combine(_folder, "peer")).FullName;
        string ready = Path.Combine(_folder, "peer.ready"), stop = Path.Combine(_folder, "peer.stop"), script = Path.Combine(_folder, "peer.ps1");
        File.WriteAllText(script, PeerScript);
        using Process other = Process.Start(new ProcessStartInfo("powershell.exe")
        {
            ArgumentList = { "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", script, source, peer, ready, stop },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        })!;
        Task<string> output = other.StandardOutput.ReadToEndAsync();
        Task<string> errors = other.StandardError.ReadToEndAsync();
        Assert.True(SpinWait.SpinUntil(() => File.Exists(ready) || other.HasExited, TimeSpan.FromSeconds(60)), "the other process did not start copying the source within 60 s");
        Assert.False(other.HasExited, $"the other process ended early: {output.Result} {errors.Result}");

        TestBuildEngine engine = CloneInParallel(transfer, diagnostics, source);
        File.WriteAllText(stop, string.Empty);
        Assert.True(other.WaitForExit(60_000), "the other process did not stop");

        string said = output.Result.Trim();
        Console.WriteLine($"FreshSourceParallelCloneTests, the other process: {said} {errors.Result.Trim()}");
        Assert.True(other.ExitCode == 0, $"the other process was refused {other.ExitCode} times: {said} {errors.Result}");
        Assert.Matches(@"copies [1-9][0-9]*, reads [1-9][0-9]*", said);
        string expected = Convert.ToHexString(SHA256.HashData(bytes));
        Assert.All(Destinations(), clone => Assert.True(RealRefs.Sha256(clone) == expected, $"{clone} does not hold the source's bytes"));

        // CopyFile's own copies in the other process are Windows' (clones on Server 2025: MSBuild's Copy gets the same);
        // reported, not held against CloneCopy. A CLC008 here would be this process's whole read-back catching a zero clone.
        int wrongPeers = Directory.GetFiles(peer).Count(f => RealRefs.Sha256(f) != expected);
        Console.WriteLine($"FreshSourceParallelCloneTests: {wrongPeers} of the other process's copies differ from the source; CLC008 {(engine.Warnings.Any(w => w.Code == "CLC008") ? "said" : "not said")}");
    }

    [RealRefsFact]
    [Trait("FreshSources", "Unguarded")]
    public void Unguarded_a_fresh_file_cloned_at_once_in_parallel_reports_whether_any_clone_held_zeros()
    {
        // The mitigation off, as CLONECOPY_TEST_FRESH_SOURCES=unguarded turns it off (read when a cloner is made): no
        // mutex, no whole read-back. Whatever the clones hold is printed; only the build and the switch are asserted.
        string? before = Environment.GetEnvironmentVariable(WindowsBlockCloner.FreshSourcesVariable);
        Environment.SetEnvironmentVariable(WindowsBlockCloner.FreshSourcesVariable, "unguarded");
        try
        {
            var calls = new CountedCalls();
            var diagnostics = new EngineDiagnostics();
            ClonerTransfer transfer = RealRefs.TrustedTransfer(_folder, diagnostics, calls.Seam, clonesItself: true);
            byte[] bytes = WriteFresh(out string source);

            CloneInParallel(transfer, diagnostics, source);

            string expected = Convert.ToHexString(SHA256.HashData(bytes));
            string[] clones = Destinations().ToArray();
            string[] wrong = clones.Where(c => RealRefs.Sha256(c) != expected).ToArray();
            int zeros = wrong.Count(c => File.ReadAllBytes(c).All(b => b == 0));
            Console.WriteLine($"FreshSourceParallelCloneTests, unguarded, Windows build {WindowsOsBuild.Current}: {wrong.Length} of {clones.Length} clones differ from the source, {zeros} of them all zeros{(wrong.Length > 0 ? ": " + string.Join(", ", wrong.Take(5)) : string.Empty)}");
            Assert.Equal(0, calls.Made("CreateMutex"));
            Assert.True(calls.Made("DuplicateExtents") >= clones.Length, "CloneCopy did not clone every file itself: " + calls);
        }
        finally
        {
            Environment.SetEnvironmentVariable(WindowsBlockCloner.FreshSourcesVariable, before);
        }
    }

    /// <summary>
    /// Copies and reads the source until told to stop, counting refusals; says "copies N, reads N, refused N" and exits
    /// with the number refused. Windows PowerShell 5.1, on every Windows image.
    /// </summary>
    private const string PeerScript = """
        param([string]$Source, [string]$Folder, [string]$Ready, [string]$Stop)
        $copies = 0; $reads = 0; $refused = New-Object System.Collections.Generic.List[string]; $i = 0
        while (-not (Test-Path -LiteralPath $Stop)) {
          $i++
          try { [System.IO.File]::Copy($Source, (Join-Path $Folder ('peer{0}.dll' -f ($i % 8))), $true); $copies++ }
          catch { $refused.Add('File.Copy: ' + $_.Exception.InnerException.Message) }
          try { $stream = [System.IO.File]::OpenRead($Source); $stream.Dispose(); $reads++ }
          catch { $refused.Add('File.OpenRead: ' + $_.Exception.InnerException.Message) }
          if ($i -eq 1) { New-Item -ItemType File -Path $Ready | Out-Null }
        }
        "copies $copies, reads $reads, refused $($refused.Count)"
        $refused | Select-Object -First 10
        exit $refused.Count
        """;

    /// <summary>5 MiB written through the cache and never flushed here: a build output a moment old.</summary>
    private byte[] WriteFresh(out string source)
    {
        source = Path.Combine(_folder, "obj", "x.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(source)!);
        var bytes = new byte[5 << 20];
        new Random(44).NextBytes(bytes);
        using var stream = new FileStream(source, FileMode.CreateNew, FileAccess.Write, FileShare.Read);
        stream.Write(bytes);
        return bytes;
    }

    /// <summary><see cref="Tasks"/> Copy tasks at once, each cloning the source into <see cref="DestinationsPerTask"/> folders.</summary>
    private TestBuildEngine CloneInParallel(ClonerTransfer transfer, EngineDiagnostics diagnostics, string source)
    {
        var engine = new TestBuildEngine();
        bool[] succeeded = new bool[Tasks];
        Parallel.For(0, Tasks, new ParallelOptions { MaxDegreeOfParallelism = Tasks }, t =>
        {
            var task = new CloneCopy.Copy
            {
                BuildEngine = engine,
                SourceFiles = Enumerable.Repeat<ITaskItem>(new TaskItem(source), DestinationsPerTask).ToArray(),
                DestinationFiles = Enumerable.Range(0, DestinationsPerTask).Select(d => (ITaskItem)new TaskItem(Path.Combine(_folder, $"bin{t}-{d}", "x.dll"))).ToArray(),
                Transfer = transfer,
                Diagnostics = diagnostics,
            };
            succeeded[t] = task.Execute();
        });

        Assert.True(succeeded.All(s => s), engine.Describe());
        return engine;
    }

    private System.Collections.Generic.IEnumerable<string> Destinations() =>
        from t in Enumerable.Range(0, Tasks) from d in Enumerable.Range(0, DestinationsPerTask) select Path.Combine(_folder, $"bin{t}-{d}", "x.dll");
}

/// <summary>
/// The real calls, counted by name (and their failures) from any thread: what the fresh-source mitigation did on this
/// machine. A wait for a mutex that timed out (WAIT_TIMEOUT: another clone holds it; the cloner waits again) or that took
/// it abandoned (WAIT_ABANDONED: ownership) is made, not failed; only WAIT_FAILED's error is a failed wait.
/// </summary>
internal sealed class CountedCalls
{
    private readonly ConcurrentDictionary<string, int> _made = new();
    private readonly ConcurrentDictionary<string, int> _failed = new();

    public CountedCalls() => Seam = Counter.Over(this);

    public IWindowsSystemCalls Seam { get; }

    public int Made(string name) => _made.TryGetValue(name, out int count) ? count : 0;

    public int Failed(params string[] names) => names.Sum(n => _failed.TryGetValue(n, out int count) ? count : 0);

    public override string ToString() => string.Join(", ", _made.OrderBy(c => c.Key).Select(c => $"{c.Key} {c.Value}")) + "; failed: " + string.Join(", ", _failed.Select(c => $"{c.Key} {c.Value}"));

    private object? Call(MethodInfo method, object?[] args)
    {
        object? answer = method.Invoke(WindowsSystemCalls.Instance, BindingFlags.DoNotWrapExceptions, null, args, null);
        _made.AddOrUpdate(method.Name, 1, (_, n) => n + 1);
        if (answer is int error && error != 0 && !(method.Name == nameof(IWindowsSystemCalls.WaitForMutex) && error is Win32.WaitTimeout or Win32.WaitAbandoned))
        {
            _failed.AddOrUpdate(method.Name, 1, (_, n) => n + 1);
        }

        return answer;
    }

    /// <summary>DispatchProxy's subclass: every call of the seam passes through <see cref="Call"/>.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Performance", "CA1852:Seal internal types", Justification = "DispatchProxy builds its proxy as a subclass of this type: it must not be sealed.")]
    public class Counter : DispatchProxy
    {
        private CountedCalls? _owner;

        internal static IWindowsSystemCalls Over(CountedCalls owner)
        {
            IWindowsSystemCalls seam = Create<IWindowsSystemCalls, Counter>();
            ((Counter)(object)seam)._owner = owner;
            return seam;
        }

        protected override object? Invoke(MethodInfo? targetMethod, object?[]? args) => _owner!.Call(targetMethod!, args ?? []);
    }
}
