using System.Runtime.CompilerServices;
using CloneCopy.Tests.Infrastructure;
using Xunit;

// Tests mount filesystems, change the process's current directory (relative item specs resolve against it,
// as in a real build) and set MSBuild's environment variables: they must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

// The suite proves behaviour on real Linux filesystems (loop mounts, FIEMAP, modes).
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]

namespace CloneCopy.Tests;

/// <summary>Runs before any test: the UI culture as `dotnet build` picks it (<see cref="UiCultureFromEnvironment"/>).</summary>
internal static class RunnerStart
{
    [ModuleInitializer]
    internal static void Apply() => UiCultureFromEnvironment.Apply();
}
