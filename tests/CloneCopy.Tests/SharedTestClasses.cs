// The shared test cases (tests/Shared) this runner runs: xunit.v3 discovers tests only in the test assembly, so
// each shared case class is abstract there and named here once. The namespaces are the shared classes' own, so
// test names and filters (-namespace CloneCopy.Tests.Windows, -class '*BlockCloneTransferTests') are the same in
// every lane. The trait Lane=Portable marks them for the macOS job (scripts/test.sh on macOS runs only these).

using Xunit;

namespace CloneCopy.Tests.Engine
{
    [Trait("Lane", "Portable")]
    public sealed class ClonerTransferTests : ClonerTransferCases;

    [Trait("Lane", "Portable")]
    public sealed class MacCloneErrorsTests : MacCloneErrorsCases;
}

namespace CloneCopy.Tests.MacOS
{
    [Trait("Lane", "Portable")]
    public sealed class MacCloneFileClonerTests : MacCloneFileClonerCases;

    [Trait("Lane", "Portable")]
    public sealed class MacPathProbeTests : MacPathProbeCases;
}

namespace CloneCopy.Tests.Windows
{
    [Trait("Lane", "Portable")]
    public sealed class BlockCloneTransferTests : BlockCloneTransferCases;

    [Trait("Lane", "Portable")]
    public sealed class WindowsFileIdentityTests : WindowsFileIdentityCases;

    [Trait("Lane", "Portable")]
    public sealed class WindowsLinksTests : WindowsLinksCases;

    [Trait("Lane", "Portable")]
    public sealed class WindowsVolumesTests : WindowsVolumesCases;

    [Trait("Lane", "Portable")]
    public sealed class CallBudgetTests : CallBudgetCases;

    [Trait("Lane", "Portable")]
    public sealed class CopyFileVerdictTests : CopyFileVerdictCases;

    [Trait("Lane", "Portable")]
    public sealed class LongPathTests : LongPathCases;

    [Trait("Lane", "Portable")]
    public sealed class AlternateStreamTests : AlternateStreamCases;

    [Trait("Lane", "Portable")]
    public sealed class IntegrityAndSparseTests : IntegrityAndSparseCases;

    [Trait("Lane", "Portable")]
    public sealed class RepeatedRefusalTests : RepeatedRefusalCases;

    [Trait("Lane", "Portable")]
    public sealed class CloneReadBackTests : CloneReadBackCases;

    [Trait("Lane", "Portable")]
    public sealed class FreshSourceTests : FreshSourceCases;

    [Trait("Lane", "Portable")]
    public sealed class ExtendedAttributeReplyTests : ExtendedAttributeReplyCases;

    [Trait("Lane", "Portable")]
    public sealed class MsBuildCopyComparisonTests : MsBuildCopyComparisonCases;

    [Trait("Lane", "Portable")]
    public sealed class AtomicReplaceTests : AtomicReplaceCases;

    [Trait("Lane", "Portable")]
    public sealed class RenamedWritesTests : RenamedWritesCases;
}
