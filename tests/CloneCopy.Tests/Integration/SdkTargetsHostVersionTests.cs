using System;
using System.IO;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Which task assembly Sdk.targets gives each MSBuild on .NET: the net10.0 build (multithreaded API) from MSBuild 18.3
/// on, the net8.0 build before (the .NET SDK's 10.0.1xx band, MSBuild 18.0-18.2, whose Framework has no
/// IMultiThreadableTask: the net10.0 task type would not load there and every build would fail). $(MSBuildVersion) is
/// reserved, so the installed MSBuild evaluates this repository's Sdk.targets, laid out as in the package (empty
/// task assemblies), with its one reference to $(MSBuildVersion) read from a property the test gives instead.
/// </summary>
public sealed class SdkTargetsHostVersionTests : IDisposable
{
    private readonly string _layout = Directory.CreateTempSubdirectory("clonecopy-sdk-targets").FullName;

    public void Dispose() => Directory.Delete(_layout, recursive: true);

    [Theory]
    [InlineData("18.0.2", "net8.0")]
    [InlineData("18.2.9", "net8.0")]
    [InlineData("17.11.48", "net8.0")]
    [InlineData("18.3.0", "net10.0")]
    [InlineData("18.9.6", "net10.0")]
    public void The_task_assembly_follows_the_running_MSBuilds_version(string msbuild, string expected)
    {
        string targets = File.ReadAllText(Path.Combine(FindRepositoryRoot(), "Sdk", "Sdk.targets"));
        Assert.Equal(1, Occurrences(targets, "$(MSBuildVersion)"));
        Directory.CreateDirectory(Path.Combine(_layout, "Sdk"));
        File.WriteAllText(Path.Combine(_layout, "Sdk", "Sdk.targets"), targets.Replace("$(MSBuildVersion)", "$(_CloneCopyTestMSBuildVersion)", StringComparison.Ordinal));
        foreach (string framework in new[] { "net8.0", "net10.0" })
        {
            Directory.CreateDirectory(Path.Combine(_layout, "tasks", framework));
            File.WriteAllBytes(Path.Combine(_layout, "tasks", framework, "CloneCopy.dll"), []);
        }

        File.WriteAllText(Path.Combine(_layout, "host.proj"), "<Project><Import Project=\"Sdk/Sdk.targets\" /></Project>");

        var (code, output) = Dotnet.Run($"msbuild host.proj -nologo -getProperty:_CloneCopyTaskAssembly -p:_CloneCopyTestMSBuildVersion={msbuild}", _layout, nugetPackages: null, timeoutSeconds: 120);

        Assert.True(code == 0, output);
        Assert.Equal(Path.Combine(_layout, "tasks", expected, "CloneCopy.dll"), output.Trim());
    }

    private static int Occurrences(string text, string part) => (text.Length - text.Replace(part, string.Empty, StringComparison.Ordinal).Length) / part.Length;

    private static string FindRepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CloneCopy.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Cannot find the repository root (CloneCopy.slnx) above " + AppContext.BaseDirectory);
    }
}
