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
    public const string Version = "1.0.0";

    public PackedSdk()
    {
        RepositoryRoot = FindRepositoryRoot();
        Feed = Directory.CreateTempSubdirectory("clonecopy-feed").FullName;
        var (code, output) = Dotnet.Run($"pack \"{Path.Combine(RepositoryRoot, "src", "CloneCopy", "CloneCopy.csproj")}\" -c Release -o \"{Feed}\" -nologo", RepositoryRoot, nugetPackages: null);
        if (code != 0 || !File.Exists(Path.Combine(Feed, $"CloneCopy.{Version}.nupkg")))
        {
            throw new InvalidOperationException($"dotnet pack failed ({code}):{Environment.NewLine}{output}");
        }
    }

    public string RepositoryRoot { get; }

    /// <summary>The folder holding CloneCopy.1.0.0.nupkg.</summary>
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
