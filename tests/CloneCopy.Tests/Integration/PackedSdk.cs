using System;
using System.IO;
using System.Linq;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Packs the CloneCopy package from this repository once per test run, into a local feed that the test
/// repositories restore it from: the real package, as users get it, not the source tree.
/// </summary>
public sealed class PackedSdk : IDisposable
{
    /// <summary>
    /// A folder holding a CloneCopy package already packed, to be tested instead of packing one: scripts/check-release.sh
    /// runs PackageContentsTests on the very package a release publishes.
    /// </summary>
    public const string GivenFeedVariable = "CLONECOPY_TEST_PACKAGES";

    public PackedSdk()
    {
        RepositoryRoot = FindRepositoryRoot();
        string? given = Environment.GetEnvironmentVariable(GivenFeedVariable);
        int code = 0;
        string output = string.Empty;
        if (string.IsNullOrEmpty(given))
        {
            Feed = Directory.CreateTempSubdirectory("clonecopy-feed").FullName;
            (code, output) = Dotnet.Run($"pack \"{Path.Combine(RepositoryRoot, "src", "CloneCopy", "CloneCopy.csproj")}\" -c Release -o \"{Feed}\" -nologo", RepositoryRoot, nugetPackages: null);
        }
        else
        {
            Feed = Path.GetFullPath(given);
            _ownsFeed = false;
        }

        // The version is this commit's (git tags, MinVer): read from the one package packed, never assumed. A digit
        // after "CloneCopy." leaves out the tool's package, CloneCopy.BuildCompare.*, where a given folder holds it.
        string[] packages = Directory.GetFiles(Feed, "CloneCopy.*.nupkg").Where(p => char.IsAsciiDigit(Path.GetFileName(p)["CloneCopy.".Length])).ToArray();
        if (code != 0 || packages.Length != 1)
        {
            throw new InvalidOperationException($"dotnet pack failed or {Feed} does not hold one CloneCopy package ({code}, {packages.Length} packages):{Environment.NewLine}{output}");
        }

        Version = Path.GetFileNameWithoutExtension(packages[0])["CloneCopy.".Length..];
        PackagePath = packages[0];
    }

    /// <summary>The version packed, as NuGet wrote it in the file name (1.2.3, 1.2.4-alpha.0.5).</summary>
    public string Version { get; }

    /// <summary>CloneCopy.{Version}.nupkg in <see cref="Feed"/>.</summary>
    public string PackagePath { get; }

    public string RepositoryRoot { get; }

    /// <summary>The folder holding the package (and nothing else).</summary>
    public string Feed { get; }

    private readonly bool _ownsFeed = true;

    public void Dispose()
    {
        if (_ownsFeed)
        {
            Directory.Delete(Feed, recursive: true);
        }
    }

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
