using System;
using System.IO;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Packs the CloneCopy package from this repository once per test run, into a local feed that the test
/// repositories restore it from: the real package, as users get it, not the source tree.
/// </summary>
public sealed class PackedSdk : IDisposable
{
    public PackedSdk()
    {
        RepositoryRoot = FindRepositoryRoot();
        Feed = Directory.CreateTempSubdirectory("clonecopy-feed").FullName;
        var (code, output) = Dotnet.Run($"pack \"{Path.Combine(RepositoryRoot, "src", "CloneCopy", "CloneCopy.csproj")}\" -c Release -o \"{Feed}\" -nologo", RepositoryRoot, nugetPackages: null);
        // The version is this commit's (git tags, MinVer): read from the one package packed, never assumed.
        string[] packages = Directory.GetFiles(Feed, "CloneCopy.*.nupkg");
        if (code != 0 || packages.Length != 1)
        {
            throw new InvalidOperationException($"dotnet pack failed ({code}, {packages.Length} packages):{Environment.NewLine}{output}");
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

    public void Dispose() => Directory.Delete(Feed, recursive: true);

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
