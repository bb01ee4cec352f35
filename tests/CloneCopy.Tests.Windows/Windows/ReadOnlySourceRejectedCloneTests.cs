using System;
using System.IO;
using CloneCopy.Engine;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Utilities;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// On real ReFS: a clone of a read-only, hidden source that the read-back rejects (made wrong on purpose through the
/// verifier's test hook, <see cref="CloneVerifier{TVolume}.AfterCloneForTests"/>: no file system clones wrongly on
/// request). Read back after the metadata step, the clone already carried READONLY and HIDDEN, and the rewrite through
/// CopyFile met "ERROR_ACCESS_DENIED if the destination file already exists and has the FILE_ATTRIBUTE_HIDDEN or
/// FILE_ATTRIBUTE_READONLY attribute set": MSB3021. Now the build passes and the file ends with the source's bytes.
/// The CI guard's build (CloneCopyRequireClones) makes the clone CloneCopy's own on every image: without it, on a build
/// whose CopyFile may clone (Windows Server 2025, 26100) this file of 300,000 bytes would ask the CopyFile question
/// instead, and CopyFile's READONLY copy refuses the write access the hook needs, so no clone of CloneCopy's was made.
/// </summary>
[Trait("Needs", "RealRefs")]
public sealed class ReadOnlySourceRejectedCloneTests : IDisposable
{
    private readonly string _folder = RealRefs.NewFolder("readonly-rejected");

    public void Dispose() => RealRefs.Remove(_folder);

    [RealRefsFact]
    public void A_rejected_clone_of_a_read_only_hidden_source_ends_as_a_right_copy_and_the_build_passes()
    {
        var diagnostics = new EngineDiagnostics();
        var transfer = (ClonerTransfer)new CloneCopy.Platform.Windows.WindowsPlatform(CloneCopy.Platform.Windows.WindowsSystemCalls.Instance, diagnostics).Transfer;
        transfer.UseVerdictsOf(new BuildVerdicts { ClonesMustBeKnown = true }); // as the guard's build hands it (CloneCopySettings)
        string source = TestFiles.Write(Path.Combine(_folder, "src", "ro.dll"), 300_000, seed: 44);
        File.SetAttributes(source, FileAttributes.ReadOnly | FileAttributes.Hidden);
        string destination = Path.Combine(_folder, "bin", "ro.dll");
        transfer.Verifier.AfterCloneForTests = Flip;
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            Transfer = transfer,
            Diagnostics = diagnostics,
        };

        Assert.True(task.Execute(), engine.Describe());

        Assert.Contains(engine.Warnings, w => w.Code == "CLC008");
        Assert.DoesNotContain(engine.Messages, m => (m.Message ?? string.Empty).Contains("CopyFile", StringComparison.Ordinal)); // CloneCopy's own clone, not CopyFile's
        Assert.Equal(RealRefs.Sha256(source), RealRefs.Sha256(destination));
        Assert.Equal(File.GetAttributes(source) & (FileAttributes.ReadOnly | FileAttributes.Hidden), File.GetAttributes(destination) & (FileAttributes.ReadOnly | FileAttributes.Hidden));
        Assert.Equal(File.GetLastWriteTimeUtc(source), File.GetLastWriteTimeUtc(destination));
    }

    /// <summary>Flips the last byte of the fresh clone, as a file system that cloned wrongly would leave it.</summary>
    private static void Flip(SafeFileHandle clone, string path)
    {
        long at = RandomAccess.GetLength(clone) - 1;
        var one = new byte[1];
        RandomAccess.Read(clone, one, at);
        one[0] ^= 0xFF;
        RandomAccess.Write(clone, one, at);
    }
}
