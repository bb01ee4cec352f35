using CloneCopy.Engine;

namespace CloneCopy;

/// <summary>The low-importance per-file line saying how a file got its content, and why it was not cloned.</summary>
internal static class OutcomeText
{
    public static string Describe(TransferResult transfer, string destination) => transfer.Method switch
    {
        TransferMethod.Cloned => CloneCopyText.Format(CloneCopyText.OutcomeCloned, destination, transfer.Bytes),
        TransferMethod.KernelCopied => CloneCopyText.Format(CloneCopyText.OutcomeKernelCopied, destination, transfer.Bytes, Reason(transfer.Reason)),
        _ => CloneCopyText.Format(CloneCopyText.OutcomeCopied, destination, transfer.Bytes, Reason(transfer.Reason)),
    };

    public static string Reason(NotClonedReason reason) => reason switch
    {
        NotClonedReason.EmptyFile => CloneCopyText.ReasonEmptyFile,
        NotClonedReason.SizeNotKnownInAdvance => CloneCopyText.ReasonSizeNotKnownInAdvance,
        NotClonedReason.FilesystemCannotClone => CloneCopyText.ReasonFilesystemCannotClone,
        NotClonedReason.DifferentVolumes => CloneCopyText.ReasonDifferentVolumes,
        NotClonedReason.RefusedForThisFile => CloneCopyText.ReasonRefusedForThisFile,
        NotClonedReason.NoClonePathOnPlatform => CloneCopyText.ReasonNoClonePathOnPlatform,
        NotClonedReason.LinkLimit => CloneCopyText.ReasonLinkLimit,
        NotClonedReason.CloningDisabled => CloneCopyText.ReasonCloningDisabled,
        NotClonedReason.DestinationKept => CloneCopyText.ReasonDestinationKept,
        NotClonedReason.CopyFileClonesHere => CloneCopyText.ReasonCopyFileClonesHere,
        NotClonedReason.CarriesMoreThanData => CloneCopyText.ReasonCarriesMoreThanData,
        NotClonedReason.SourceSharingViolation => CloneCopyText.ReasonSourceSharingViolation,
        NotClonedReason.IntegrityStreamsDiffer => CloneCopyText.ReasonIntegrityStreamsDiffer,
        NotClonedReason.NamesAStream => CloneCopyText.ReasonNamesAStream,
        NotClonedReason.CopyFileCopiedWhenAsked => CloneCopyText.ReasonCopyFileCopiedWhenAsked,
        NotClonedReason.IntegrityStreamsCannotBeGiven => CloneCopyText.ReasonIntegrityStreamsCannotBeGiven,
        NotClonedReason.VolumeRefusesClones => CloneCopyText.ReasonVolumeRefusesClones,
        NotClonedReason.CloneReadBackDiffered => CloneCopyText.ReasonCloneReadBackDiffered,
        _ => CloneCopyText.ReasonNone,
    };
}
