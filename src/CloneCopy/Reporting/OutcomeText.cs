using CloneCopy.Engine;

namespace CloneCopy;

/// <summary>The low-importance per-file line saying how a file got its content, and why it was not cloned.</summary>
internal static class OutcomeText
{
    public static string Describe(TransferResult transfer, string destination) => transfer.Method switch
    {
        TransferMethod.Cloned => $"CloneCopy: cloned \"{destination}\" ({transfer.Bytes} bytes not written).",
        TransferMethod.KernelCopied => $"CloneCopy: copied \"{destination}\" in the kernel ({transfer.Bytes} bytes): {Reason(transfer.Reason)}.",
        _ => $"CloneCopy: copied \"{destination}\" ({transfer.Bytes} bytes): {Reason(transfer.Reason)}.",
    };

    public static string Reason(NotClonedReason reason) => reason switch
    {
        NotClonedReason.EmptyFile => "empty file",
        NotClonedReason.FilesystemCannotClone => "the filesystem cannot clone",
        NotClonedReason.DifferentVolumes => "different volumes",
        NotClonedReason.RefusedForThisFile => "clone refused for this file",
        NotClonedReason.NoClonePathOnPlatform => "no clone path on this platform yet",
        NotClonedReason.LinkLimit => "link limit",
        NotClonedReason.CloningDisabled => "cloning disabled",
        NotClonedReason.DestinationKept => "the existing destination was kept and written in place",
        NotClonedReason.CopyFileClonesHere => "Windows' CopyFile clones here itself",
        NotClonedReason.CarriesMoreThanData => "named streams or extended attributes, which CopyFile copies and a clone would drop",
        _ => "cloned",
    };
}
