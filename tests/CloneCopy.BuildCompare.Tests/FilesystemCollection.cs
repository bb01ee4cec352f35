using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

/// <summary>The loop-mounted filesystems (<see cref="LoopFilesystems"/>), one set for the run; declared here because xunit finds collection definitions only in the test assembly.</summary>
[CollectionDefinition(Name)]
public sealed class FilesystemCollection : ICollectionFixture<LoopFilesystems>
{
    public const string Name = "Real filesystems";
}
