using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>
/// A one-project repository in a temporary folder (no package references, so restore needs no network), and a
/// stand-in CloneCopy package: an Sdk.targets that says a summary line in CloneCopy's format. The stand-in is the
/// seam that lets these tests check the tool's own behaviour (injection, failures, reports) in seconds, without
/// packing the real SDK; scripts/check-build-compare.sh runs the tool with the real one.
/// </summary>
public sealed class TinyRepository : IDisposable
{
    public TinyRepository(string extraProjectContent = "", string classBody = "")
    {
        Base = Directory.CreateTempSubdirectory("compare-test").FullName;
        Root = Path.Combine(Base, "repo");
        Write("global.json", "{ \"sdk\": { \"version\": \"10.0.100\", \"rollForward\": \"latestFeature\" } }");
        Write("Directory.Build.props", "<Project />");
        Write("Directory.Build.targets", "<Project />");
        Write("Lib/Lib.csproj", $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
              <ItemGroup><None Include="data.txt" CopyToOutputDirectory="PreserveNewest" /></ItemGroup>
              {extraProjectContent}
            </Project>
            """);
        Write("Lib/data.txt", "content copied to the output");
        Write("Lib/Class1.cs", $"namespace Lib; public static class Class1 {{ {classBody} }}");

        Sdk = Path.Combine(Base, "fake-sdk");
        Directory.CreateDirectory(Path.Combine(Sdk, "Sdk"));
        File.WriteAllText(Path.Combine(Sdk, "Sdk", "Sdk.props"), "<Project><PropertyGroup><CloneCopySdkDirectory>$(MSBuildThisFileDirectory)</CloneCopySdkDirectory></PropertyGroup></Project>");
        File.WriteAllText(Path.Combine(Sdk, "Sdk", "Sdk.targets"), """
            <Project>
              <Target Name="_FakeSummary" AfterTargets="Build" Condition="'$(DisableCloneCopy)' != 'true'">
                <Message Importance="high" Text="CloneCopy: 1 file cloned (1.0 KB not written), 2 copied (the filesystem cannot clone: 2) [$(MSBuildProjectName)]" />
              </Target>
            </Project>
            """);
        Output = Path.Combine(Base, "out");
        Project = Path.Combine(Root, "Lib", "Lib.csproj");
    }

    public string Base { get; }

    public string Root { get; }

    public string Project { get; }

    public string Sdk { get; }

    public string Output { get; }

    public void Write(string relative, string content)
    {
        string path = Path.Combine(Root, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }

    /// <summary>A file in the output folder, as an earlier run (or the user) left it.</summary>
    public void WriteOutput(string relative, string content)
    {
        string path = Path.Combine(Output, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }

    /// <summary>Every file under the repository with its content: equal before and after means "left as it was".</summary>
    public IReadOnlyDictionary<string, string> State() =>
        Directory.EnumerateFileSystemEntries(Root, "*", SearchOption.AllDirectories)
            .ToDictionary(p => Path.GetRelativePath(Root, p), p => File.Exists(p) ? File.ReadAllText(p) : "<dir>");

    public void Dispose() => Directory.Delete(Base, recursive: true);
}
