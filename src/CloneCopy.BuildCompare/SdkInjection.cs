using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;

namespace CloneCopy.BuildCompare;

/// <summary>
/// Puts CloneCopy into the builds of a repository without writing to it. MSBuild's Microsoft.Common.targets
/// imports the file named by the property CustomAfterDirectoryBuildTargets (right after Directory.Build.targets)
/// in every project; the CloneCopy way passes it with -p: pointing at a file outside the repository, which
/// imports the package's Sdk.props and Sdk.targets from the extracted package. The repository's own files and
/// NuGet set-up are never involved, so nothing needs restoring and no feed needs configuring.
///
/// A repository that already uses CloneCopy (its Sdk.props has set CloneCopySdkDirectory by then) keeps its own
/// version: the injected file then imports nothing, and the comparison is its CloneCopy against DisableCloneCopy=true.
/// Each project says which happened in one line, so the report can tell.
/// </summary>
public sealed class SdkInjection
{
    public const string InjectedLine = "clonecopy-compare: CloneCopy injected";
    public const string OwnLine = "clonecopy-compare: the repository's own CloneCopy";

    /// <summary>The injected targets file, written into the output folder.</summary>
    public const string TargetsFileName = "CloneCopy.Compare.targets";

    private SdkInjection(string targetsFile, string sdkDirectory, string sdkDescription)
    {
        TargetsFile = targetsFile;
        SdkDirectory = sdkDirectory;
        SdkDescription = sdkDescription;
    }

    /// <summary>The injected file handed to MSBuild.</summary>
    public string TargetsFile { get; }

    /// <summary>The package folder holding Sdk/Sdk.targets and tasks/.</summary>
    public string SdkDirectory { get; }

    /// <summary>Which package was used ("CloneCopy.1.2.3.nupkg bundled with the tool").</summary>
    public string SdkDescription { get; }

    /// <summary>The properties each way's builds get.</summary>
    public IReadOnlyList<string> PropertiesFor(BuildWay way) => way == BuildWay.CloneCopy
        ? [$"-p:CustomAfterDirectoryBuildTargets={TargetsFile}"]
        : ["-p:DisableCloneCopy=true"];

    /// <summary>
    /// Extracts the package (given, or bundled next to the tool) into <paramref name="workDirectory"/>/sdk and writes
    /// the injected targets file beside it.
    /// </summary>
    public static SdkInjection Prepare(string? sdkSource, string workDirectory)
    {
        var (packageDirectory, description) = LocatePackage(sdkSource, workDirectory);
        string targets = Path.Combine(workDirectory, TargetsFileName);
        File.WriteAllText(targets, TargetsText(packageDirectory));
        return new SdkInjection(targets, packageDirectory, description);
    }

    private static (string Directory, string Description) LocatePackage(string? sdkSource, string workDirectory)
    {
        if (sdkSource is not null && Directory.Exists(sdkSource))
        {
            if (!File.Exists(Path.Combine(sdkSource, "Sdk", "Sdk.targets")))
            {
                throw new CompareFailure($"--sdk {sdkSource}: this folder has no Sdk/Sdk.targets; give a CloneCopy .nupkg or the folder it was extracted to.");
            }

            return (Path.GetFullPath(sdkSource), $"the package folder {sdkSource}");
        }

        string package = sdkSource ?? BundledPackage()
            ?? throw new CompareFailure("No CloneCopy package: this copy of the tool has none bundled (it was built, not packed). Pass --sdk with a CloneCopy .nupkg (dotnet pack src/CloneCopy -c Release -o artifacts/packages makes one).");
        if (!File.Exists(package))
        {
            throw new CompareFailure($"--sdk {package}: no such file or folder.");
        }

        string directory = Path.Combine(workDirectory, "sdk");
        if (Directory.Exists(directory))
        {
            Directory.Delete(directory, recursive: true);
        }

        try
        {
            ZipFile.ExtractToDirectory(package, directory);
        }
        catch (InvalidDataException e)
        {
            throw new CompareFailure($"--sdk {package}: not a NuGet package ({e.Message}).");
        }

        if (!File.Exists(Path.Combine(directory, "Sdk", "Sdk.targets")))
        {
            throw new CompareFailure($"{package} has no Sdk/Sdk.targets: it is not a CloneCopy package.");
        }

        string source = sdkSource is null ? $"{Path.GetFileName(package)} bundled with the tool" : Path.GetFileName(package);
        return (directory, source);
    }

    /// <summary>The package a packed tool carries in sdk/ beside its own assembly.</summary>
    private static string? BundledPackage()
    {
        string folder = Path.Combine(AppContext.BaseDirectory, "sdk");
        return Directory.Exists(folder) ? Directory.GetFiles(folder, "CloneCopy.*.nupkg").OrderBy(p => p, StringComparer.Ordinal).LastOrDefault() : null;
    }

    private static string TargetsText(string packageDirectory)
    {
        string sdk = Path.Combine(packageDirectory, "Sdk");
        return $$"""
            <Project>
              <!-- Written by clonecopy-compare, outside the repository; imported through CustomAfterDirectoryBuildTargets. -->
              <PropertyGroup>
                <_CloneCopyCompareInjected Condition="'$(CloneCopySdkDirectory)' == ''">true</_CloneCopyCompareInjected>
              </PropertyGroup>
              <Import Project="{{Path.Combine(sdk, "Sdk.props")}}" Condition="'$(_CloneCopyCompareInjected)' == 'true'" />
              <Import Project="{{Path.Combine(sdk, "Sdk.targets")}}" Condition="'$(_CloneCopyCompareInjected)' == 'true'" />
              <Target Name="_CloneCopyCompareSaysWhich" AfterTargets="Build">
                <Message Importance="high" Condition="'$(_CloneCopyCompareInjected)' == 'true'" Text="{{InjectedLine}} [$(MSBuildProjectName)]" />
                <Message Importance="high" Condition="'$(_CloneCopyCompareInjected)' != 'true'" Text="{{OwnLine}} [$(MSBuildProjectName)]" />
              </Target>
            </Project>
            """;
    }
}
