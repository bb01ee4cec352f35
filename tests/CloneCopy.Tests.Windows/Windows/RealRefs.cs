using System;
using System.IO;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using CloneCopy.Engine;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// A folder on a real ReFS volume (or Dev Drive), named by CLONECOPY_TEST_REFS: the Windows CI job sets it. The tests
/// that need one carry the trait Needs=RealRefs (left out of the wine lane: Wine has no block clone).
/// </summary>
internal static class RealRefs
{
    public const string Variable = "CLONECOPY_TEST_REFS";

    public static string? Root => Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } root && Directory.Exists(root) ? root : null;

    /// <summary>A new folder under the ReFS folder; under CI=true a missing folder fails the test (it never skips there).</summary>
    public static string NewFolder(string name)
    {
        if (Root is not string root)
        {
            Assert.Fail($"{Variable} must name an existing folder on a ReFS volume (CI=true: this test fails rather than skips without it).");
            throw new InvalidOperationException();
        }

        return Directory.CreateDirectory(Path.Combine(root, $"{name}-{Guid.NewGuid():N}")).FullName;
    }

    /// <summary>
    /// The product's Windows chain on the real kernel32 and ntdll (or <paramref name="calls"/> over them), its volume first
    /// trusted: one file cloned and read back right, so later clones there are not read back and only the clone path itself
    /// decides what they hold. <paramref name="clonesItself"/>: the CI guard's build (CloneCopyRequireClones), in which
    /// CloneCopy clones every file itself, also where CopyFile clones by itself (Windows Server 2025), and never asks the
    /// CopyFile question.
    /// </summary>
    public static ClonerTransfer TrustedTransfer(string folder, EngineDiagnostics diagnostics, IWindowsSystemCalls? calls = null, bool clonesItself = false)
    {
        var transfer = (ClonerTransfer)new WindowsPlatform(calls ?? WindowsSystemCalls.Instance, diagnostics).Transfer;
        if (clonesItself)
        {
            transfer.UseVerdictsOf(new BuildVerdicts { ClonesMustBeKnown = true });
        }

        string warm = TestFiles.Write(Path.Combine(folder, "warm.dll"), 70_000, seed: 1);
        TransferResult result = transfer.Transfer(warm, Path.Combine(folder, "warm.copy"), System.Threading.CancellationToken.None);
        Assert.True(result.Method == TransferMethod.Cloned, $"{folder} did not clone ({result.Reason}): {Variable} must name a folder on ReFS or a Dev Drive");
        Assert.Equal(1, transfer.Verifier.ReadBacks);
        return transfer;
    }

    public static string Sha256(string path)
    {
        using FileStream stream = File.OpenRead(path);
        return Convert.ToHexString(SHA256.HashData(stream));
    }

    /// <summary>Removes a test folder, read-only files included.</summary>
    public static void Remove(string folder)
    {
        foreach (string file in Directory.GetFiles(folder, "*", SearchOption.AllDirectories))
        {
            File.SetAttributes(file, FileAttributes.Normal);
        }

        Directory.Delete(folder, recursive: true);
    }
}

/// <summary>A test on real ReFS: skipped where CLONECOPY_TEST_REFS is not set, except under CI=true, where it runs and fails.</summary>
public sealed class RealRefsFactAttribute : FactAttribute
{
    public RealRefsFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (!LoopFilesystems.IsCi && RealRefs.Root is null)
        {
            Skip = $"Needs a folder on ReFS or a Dev Drive in {RealRefs.Variable}; CI=true makes this a failure.";
        }
    }
}
