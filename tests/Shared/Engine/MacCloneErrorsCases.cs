using CloneCopy.Engine;
using CloneCopy.Platform.MacOS;
using Xunit;

namespace CloneCopy.Tests.Engine;

/// <summary>The macOS clonefile path's decisions, which hold on any OS.</summary>
public abstract class MacCloneErrorsCases
{
    [Theory]
    [InlineData(MacCloneErrors.ENOTSUP, CloneAttemptKind.ImpossibleHere, NotClonedReason.FilesystemCannotClone)]
    [InlineData(MacCloneErrors.EXDEV, CloneAttemptKind.ImpossibleHere, NotClonedReason.DifferentVolumes)]
    [InlineData(MacCloneErrors.EEXIST, CloneAttemptKind.NotNow, NotClonedReason.DestinationKept)]
    [InlineData(MacCloneErrors.EINVAL, CloneAttemptKind.NotNow, NotClonedReason.RefusedForThisFile)]
    public void Errors_that_mean_copy_instead_are_classified(int errno, object kind, object reason)
    {
        CloneAttempt? attempt = MacCloneErrors.Classify(errno, "x");
        Assert.NotNull(attempt);
        Assert.Equal((CloneAttemptKind)kind, attempt.Value.Kind);
        Assert.Equal((NotClonedReason)reason, attempt.Value.Reason);
    }

    [Theory]
    [InlineData(MacCloneErrors.ENOSPC)]
    [InlineData(MacCloneErrors.EDQUOT)]
    [InlineData(MacCloneErrors.EIO)]
    public void Real_errors_are_not_hidden_behind_a_fallback(int errno) => Assert.Null(MacCloneErrors.Classify(errno, "x"));
}
