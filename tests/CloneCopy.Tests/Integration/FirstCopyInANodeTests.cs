using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// The first Copy in a fresh MSBuild node, where a real build pays for every method the runtime compiles before the
/// task's first file: with the packed package's precompiled (ReadyToRun) task, nothing of CloneCopy's is compiled by
/// the JIT. Two mistakes make it compile, and each cost that first Copy milliseconds without any test failing: a
/// framework collection over one of CloneCopy's value types (a ConcurrentDictionary keyed by the Linux pair of
/// devices, in the clone read-back's first version: 16 methods, +4 to +7 ms against MSBuild's Copy), and a precompiled
/// image the runtime rejects (everything compiled). The runtime's own list of what its JIT compiled says so without
/// timing anything (DOTNET_JitStdOutFile with DOTNET_JitDisasmSummary, both in release runtimes).
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class FirstCopyInANodeTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;
    private readonly MSBuild18 _msbuild18;

    public FirstCopyInANodeTests(LoopFilesystems filesystems, PackedSdk sdk, MSBuild18 msbuild18)
    {
        _filesystems = filesystems;
        _sdk = sdk;
        _msbuild18 = msbuild18;
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void The_first_Copy_in_a_fresh_node_compiles_nothing_of_CloneCopys_with_the_JIT(FilesystemKind kind)
    {
        var (root, compiled, environment) = OneCopyProject(kind);

        var (code, log) = Dotnet.Run("msbuild one.proj -nodeReuse:false -nologo -v:n", root, nugetPackages: null, environment: environment);

        AssertNothingOfCloneCopysCompiled(kind, root, compiled, code, log);
    }

    /// <summary>
    /// The same on .NET 11, as the .NET 11 SDK's MSBuild runs (MSBuild 18.12.2's engine on .NET 11.0.0, a fresh process):
    /// a precompiled image is used only on the runtime major version it was compiled for, so this needs the package's
    /// image for .NET 11 (measured without it: every method of the Copy's path compiled, as with the portable build).
    /// </summary>
    [FilesystemTheory]
    [InlineData(FilesystemKind.Xfs)]
    [InlineData(FilesystemKind.Ext4)]
    public void The_first_Copy_in_a_fresh_NET_11_node_compiles_nothing_of_CloneCopys_with_the_JIT(FilesystemKind kind)
    {
        var (root, compiled, environment) = OneCopyProject(kind);

        var (code, log) = _msbuild18.Run("--no-restore one.proj", root, nugetPackages: null, environment: environment);

        Assert.Contains("MSBuild18Host: .NET 11.0.0, Microsoft.Build 18.12.2", log);
        AssertNothingOfCloneCopysCompiled(kind, root, compiled, code, log);
        Assert.Contains("Using \"Copy\" task from assembly \"" + Path.Combine(root, "sdk", "tasks", "net10.0", "dotnet11", "linux-x64", "CloneCopy.dll") + "\"", log);
    }

    private (string Root, string Compiled, Dictionary<string, string> Environment) OneCopyProject(FilesystemKind kind)
    {
        // On reflink XFS: the clone, its once-per-filesystem read-back and the version of MSBuild read, all on the path;
        // on ext4: the refused clone and the copy in the kernel instead.
        string root = _filesystems.NewDirectory(kind);
        string sdk = Path.Combine(root, "sdk");
        ZipFile.ExtractToDirectory(_sdk.PackagePath, sdk);
        Directory.CreateDirectory(Path.Combine(root, "src"));
        for (int i = 1; i <= 3; i++)
        {
            TestFiles.Write(Path.Combine(root, "src", $"f{i}.dll"), 20_000, seed: i);
        }

        // The SDK imported by path, as the cold-node benchmark does: no restore in the process measured.
        File.WriteAllText(Path.Combine(root, "one.proj"), $"""
            <Project>
              <Import Project="{sdk}/Sdk/Sdk.props" />
              <Target Name="Build"><Copy SourceFiles="src/f1.dll;src/f2.dll;src/f3.dll" DestinationFolder="out" /></Target>
              <Import Project="{sdk}/Sdk/Sdk.targets" />
            </Project>
            """);
        string compiled = Path.Combine(root, "jit.txt");
        var environment = new Dictionary<string, string> { ["DOTNET_JitStdOutFile"] = compiled, ["DOTNET_JitDisasmSummary"] = "1" };
        return (root, compiled, environment);
    }

    private static void AssertNothingOfCloneCopysCompiled(FilesystemKind kind, string root, string compiled, int code, string log)
    {
        Assert.True(code == 0, log);
        if (kind == FilesystemKind.Xfs)
        {
            Assert.Contains("CloneCopy: 3 files cloned", log);
            Assert.True(ExtentMap.SharesAllExtents(Path.Combine(root, "src", "f1.dll"), Path.Combine(root, "out", "f1.dll"), out string extents), extents);
        }
        else
        {
            Assert.Contains("CloneCopy: 0 files cloned (0 B not written), 3 copied (the filesystem cannot clone: 3)", log);
        }

        string[] methods = File.ReadAllLines(compiled);
        Assert.True(methods.Length > 100, $"the runtime listed {methods.Length} methods compiled: is DOTNET_JitStdOutFile still honoured?");
        // A first compilation is what a cold node pays for; a Tier1 line is precompiled code the runtime chose to
        // optimize further in the background, after it ran hot (possible on a slow machine), which costs the copy nothing.
        string[] ours = methods.Where(line => line.Contains("CloneCopy", StringComparison.Ordinal) && !line.Contains("[Tier1", StringComparison.Ordinal)).ToArray();
        Assert.True(ours.Length == 0, $"compiled by the JIT before the first copy ({ours.Length}):{Environment.NewLine}{string.Join(Environment.NewLine, ours.Take(20))}");
    }
}
