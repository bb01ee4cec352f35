using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>Tests that build real projects with the packed SDK, on the loop-mounted filesystems.</summary>
[CollectionDefinition(Name)]
public sealed class BuiltProjectsCollection : ICollectionFixture<LoopFilesystems>, ICollectionFixture<PackedSdk>, ICollectionFixture<MSBuild18>
{
    public const string Name = "Built projects";
}
