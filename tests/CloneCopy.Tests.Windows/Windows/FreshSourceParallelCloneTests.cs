using System;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Threading.Tasks;
using CloneCopy.Engine;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// On real ReFS: a file written moments ago and at once cloned many ways in parallel through CloneCopy's Copy, as a build
/// with -m clones a new obj\x.dll into many bin folders (microsoft/CopyOnWrite #12: "success is returned but ... the
/// destination file having all zeroes"; git-lfs #6312). The volume is trusted first, so no read-back stands between a
/// wrong clone and the file: every clone must hold the source's bytes by the clone path alone.
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
        var diagnostics = new EngineDiagnostics();
        ClonerTransfer transfer = RealRefs.TrustedTransfer(_folder, diagnostics);
        string source = Path.Combine(_folder, "obj", "x.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(source)!);
        var bytes = new byte[5 << 20];
        new Random(44).NextBytes(bytes);
        using (var stream = new FileStream(source, FileMode.CreateNew, FileAccess.Write, FileShare.Read))
        {
            stream.Write(bytes); // written through the cache, never flushed here
        }

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
        string expected = Convert.ToHexString(SHA256.HashData(bytes));
        Assert.Equal(expected, RealRefs.Sha256(source));
        Assert.All(
            from t in Enumerable.Range(0, Tasks) from d in Enumerable.Range(0, DestinationsPerTask) select Path.Combine(_folder, $"bin{t}-{d}", "x.dll"),
            clone => Assert.True(RealRefs.Sha256(clone) == expected, $"{clone} does not hold the source's bytes"));
        Assert.DoesNotContain(engine.Warnings, w => w.Code == "CLC008");
    }
}
