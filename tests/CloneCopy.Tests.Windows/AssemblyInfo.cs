using System.Runtime.CompilerServices;
using CloneCopy.Tests.Infrastructure;
using Xunit;

// Tests change the process's current directory and environment variables: they must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace CloneCopy.Tests;

/// <summary>Runs before any test: the UI culture as `dotnet build` picks it (<see cref="UiCultureFromEnvironment"/>).</summary>
internal static class RunnerStart
{
    [ModuleInitializer]
    internal static void Apply() => UiCultureFromEnvironment.Apply();
}
