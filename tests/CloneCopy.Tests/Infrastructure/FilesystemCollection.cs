using Xunit;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// The tests that use the loop-mounted filesystems (<see cref="LoopFilesystems"/>, in tests/Shared) share one set
/// for the whole run. xunit finds collection definitions only in the test assembly, so it is declared here.
/// </summary>
[CollectionDefinition(Name)]
public sealed class FilesystemCollection : ICollectionFixture<LoopFilesystems>
{
    public const string Name = "Real filesystems";
}
