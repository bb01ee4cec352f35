using CloneCopy.Engine;

namespace CloneCopy;

/// <summary>What happened to one pair.</summary>
internal enum PairResult
{
    Failed,

    /// <summary>Content written: cloned, kernel-copied or copied (see <see cref="PairOutcome.Transfer"/>).</summary>
    Transferred,

    HardLinked,
    SymbolicLinked,

    /// <summary>A link was asked for and CloneCopyClonesInsteadOfLinks made a clone instead.</summary>
    ClonedInsteadOfLink,

    /// <summary>SkipUnchangedFiles found equal size and timestamp.</summary>
    UpToDate,

    /// <summary>Source and destination are the same path: nothing to do.</summary>
    SamePath,

    /// <summary>The same source was already copied to this destination in this call.</summary>
    Duplicate,
}

internal readonly struct PairOutcome
{
    public PairOutcome(PairResult result, TransferResult transfer = default)
    {
        Result = result;
        Transfer = transfer;
    }

    public PairResult Result { get; }

    public TransferResult Transfer { get; }

    public bool Succeeded => Result != PairResult.Failed;

    public bool Wrote => Result is PairResult.Transferred or PairResult.HardLinked or PairResult.SymbolicLinked or PairResult.ClonedInsteadOfLink;

    public static PairOutcome Failed => new(PairResult.Failed);
}
