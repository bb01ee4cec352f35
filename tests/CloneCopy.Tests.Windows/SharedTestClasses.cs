// The shared test cases (tests/Shared) this runner runs: xunit.v3 discovers tests only in the test assembly, so
// each shared case class is abstract there and named here once. The namespaces are the shared classes' own, so
// test names and filters (-namespace CloneCopy.Tests.Windows, -class '*BlockCloneTransferTests') are the same in
// every lane.

namespace CloneCopy.Tests.Engine
{
    public sealed class ClonerTransferTests : ClonerTransferCases;

    public sealed class MacCloneErrorsTests : MacCloneErrorsCases;
}

namespace CloneCopy.Tests.MacOS
{
    public sealed class MacCloneFileClonerTests : MacCloneFileClonerCases;

    public sealed class MacPathProbeTests : MacPathProbeCases;
}

namespace CloneCopy.Tests.Windows
{
    public sealed class BlockCloneTransferTests : BlockCloneTransferCases;

    public sealed class WindowsFileIdentityTests : WindowsFileIdentityCases;

    public sealed class WindowsLinksTests : WindowsLinksCases;

    public sealed class WindowsVolumesTests : WindowsVolumesCases;

    public sealed class CallBudgetTests : CallBudgetCases;

    public sealed class CopyFileVerdictTests : CopyFileVerdictCases;

    public sealed class LongPathTests : LongPathCases;

    public sealed class AlternateStreamTests : AlternateStreamCases;

    public sealed class IntegrityAndSparseTests : IntegrityAndSparseCases;

    public sealed class RepeatedRefusalTests : RepeatedRefusalCases;

    public sealed class CloneReadBackTests : CloneReadBackCases;

    public sealed class FreshSourceTests : FreshSourceCases;

    public sealed class ExtendedAttributeReplyTests : ExtendedAttributeReplyCases;

    public sealed class MsBuildCopyComparisonTests : MsBuildCopyComparisonCases;

    public sealed class AtomicReplaceTests : AtomicReplaceCases;

    public sealed class RenamedWritesTests : RenamedWritesCases;
}
