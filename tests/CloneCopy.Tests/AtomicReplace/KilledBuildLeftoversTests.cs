using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;
using CloneCopy.Tests.Integration;
using Xunit;

namespace CloneCopy.Tests.AtomicReplace;

/// <summary>
/// A build with CloneCopyAtomicReplace killed (SIGKILL) while a replacement waits under its temporary name in the
/// project's output folder, then the project built again as a user would: with the switch off; with it on and nothing
/// to replace (the sources are what the output holds); with it on and every file replaced; or cleaned (dotnet clean).
/// After each, no temporary file of CloneCopy's is left anywhere in the repository. The kill is a handshake, not a
/// clock: the killed process is a Copy with the switch that says where its replacement is once it is complete, and
/// waits there to be killed.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class KilledBuildLeftoversTests
{
    private const int Files = 3;

    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;
    private readonly ITestOutputHelper _output;

    public KilledBuildLeftoversTests(LoopFilesystems filesystems, PackedSdk sdk, ITestOutputHelper output)
    {
        _filesystems = filesystems;
        _sdk = sdk;
        _output = output;
    }

    public enum Rebuild
    {
        /// <summary>dotnet build without CloneCopyAtomicReplace.</summary>
        SwitchOff,

        /// <summary>dotnet build with the switch, the sources unchanged: nothing in the output folder is replaced.</summary>
        SwitchOnNothingReplaced,

        /// <summary>dotnet build with the switch, every source newer than its copy: every file is replaced.</summary>
        SwitchOnEveryFileReplaced,

        /// <summary>dotnet clean, by a user whose per-user folder does not hold the killed process's record.</summary>
        Clean,
    }

    [FilesystemTheory]
    [InlineData(FilesystemKind.Ext4, Rebuild.SwitchOff)]
    [InlineData(FilesystemKind.Ext4, Rebuild.SwitchOnNothingReplaced)]
    [InlineData(FilesystemKind.Ext4, Rebuild.SwitchOnEveryFileReplaced)]
    [InlineData(FilesystemKind.Ext4, Rebuild.Clean)]
    [InlineData(FilesystemKind.Xfs, Rebuild.SwitchOff)]
    [InlineData(FilesystemKind.Xfs, Rebuild.SwitchOnNothingReplaced)]
    [InlineData(FilesystemKind.Xfs, Rebuild.SwitchOnEveryFileReplaced)]
    [InlineData(FilesystemKind.Xfs, Rebuild.Clean)]
    public void After_a_killed_replace_the_next_build_leaves_no_temporary_file(FilesystemKind kind, Rebuild rebuild)
    {
        string root = _filesystems.NewDirectory(kind, "killed-build");
        var repository = new TestRepository(Path.Combine(root, "repo"), _sdk)
            .Write("Directory.Build.props", "<Project><Sdk Name=\"CloneCopy\" /></Project>")
            .WriteGlobalJson(msbuildSdks: true)
            .Write("App/App.csproj", """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                  </PropertyGroup>
                  <ItemGroup>
                    <None Include="data/*.bin" CopyToOutputDirectory="PreserveNewest" />
                  </ItemGroup>
                </Project>
                """)
            .Write("App/Class1.cs", "namespace App; public static class Class1 { }");
        for (int i = 0; i < Files; i++)
        {
            repository.Content($"App/data/file{i}.bin", 1 << 20, seed: i + 1);
        }

        // Where the per-user record of each process's replacements goes (XDG_DATA_HOME: .NET's LocalApplicationData
        // on Linux): the test's own, so no other process's record plays a part.
        string userData = Directory.CreateDirectory(Path.Combine(root, "user-data")).FullName;
        var user = new Dictionary<string, string> { ["XDG_DATA_HOME"] = userData };
        Build(repository, "-p:CloneCopyAtomicReplace=true", user);
        string output = Path.Combine(repository.Root, "App", "bin", "Debug", "net10.0", "data");
        Assert.True(File.Exists(Path.Combine(output, "file0.bin")), $"the first build did not copy the data files to {output}");

        // The killed build: a Copy with the switch replacing file0.bin, killed once its replacement is complete beside it.
        // The one for dotnet clean kept its record in another user's folder: the clean step must find the file itself.
        string newer = TestFiles.Write(Path.Combine(root, "newer.bin"), 1 << 20, seed: 99);
        string killedUserData = rebuild == Rebuild.Clean ? Directory.CreateDirectory(Path.Combine(root, "other-user-data")).FullName : userData;
        string replacement = KillWhileReplacing(newer, Path.Combine(output, "file0.bin"), killedUserData);
        Assert.Equal(output, Path.GetDirectoryName(replacement));
        Assert.Equal(File.ReadAllBytes(newer), File.ReadAllBytes(replacement));

        (int code, string log) = rebuild switch
        {
            Rebuild.SwitchOff => Build(repository, string.Empty, user),
            Rebuild.SwitchOnNothingReplaced => Build(repository, "-p:CloneCopyAtomicReplace=true", user),
            Rebuild.SwitchOnEveryFileReplaced => Build(repository, "-p:CloneCopyAtomicReplace=true", user, touchSources: true),
            _ => Dotnet.Run("clean App/App.csproj -nologo -v:n", repository.Root, repository.NuGetPackages, environment: user),
        };
        Assert.True(code == 0, log);

        string[] left = Directory.GetFiles(repository.Root, ".clonecopy-*", SearchOption.AllDirectories);
        Assert.True(left.Length == 0, $"{rebuild} left {string.Join(", ", left)}");
        if (rebuild == Rebuild.SwitchOnEveryFileReplaced)
        {
            Assert.Equal(File.ReadAllBytes(Path.Combine(repository.Root, "App", "data", "file0.bin")), File.ReadAllBytes(Path.Combine(output, "file0.bin")));
        }
    }

    private (int ExitCode, string Output) Build(TestRepository repository, string switches, IReadOnlyDictionary<string, string> environment, bool touchSources = false)
    {
        if (touchSources)
        {
            DateTime now = DateTime.UtcNow;
            foreach (string source in Directory.GetFiles(Path.Combine(repository.Root, "App", "data")))
            {
                File.SetLastWriteTimeUtc(source, now);
            }
        }

        (int code, string log) = Dotnet.Run($"build App/App.csproj -nologo -m:1 -v:n {switches}", repository.Root, repository.NuGetPackages, environment: environment);
        Assert.True(code == 0, log);
        _output.WriteLine($"built with '{switches}'{(touchSources ? ", every source newer" : string.Empty)}");
        return (code, log);
    }

    /// <summary>Starts a Copy with the switch from <paramref name="source"/> over <paramref name="destination"/>, kills it once its replacement is written, and returns the replacement's path.</summary>
    private string KillWhileReplacing(string source, string destination, string userData)
    {
        using var writer = RaceProcesses.Start(false, new Dictionary<string, string> { ["XDG_DATA_HOME"] = userData }, "--replace-loop", "clonecopy", "on", source, destination, "1", "stop-at-written");
        string? line = writer.StandardOutput.ReadLine();
        writer.Kill();
        writer.WaitForExit();
        Assert.True(line is not null && line.StartsWith("written ", StringComparison.Ordinal), $"the writer said '{line}': {writer.StandardError.ReadToEnd()}");
        string replacement = line!["written ".Length..];
        Assert.True(File.Exists(replacement), $"{replacement} is not there after the kill");
        _output.WriteLine($"killed with {Path.GetFileName(replacement)} in {Path.GetDirectoryName(replacement)}");
        return replacement;
    }
}
