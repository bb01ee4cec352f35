using System.Collections.Generic;
using System.IO;
using CloneCopy.Engine;

namespace CloneCopy;

/// <summary>
/// What the Copy calls of one project build did, added up: counts per outcome, reasons for copies, bytes,
/// time, and a few examples for the diagnostics. Thread-safe: Copy calls of one project may overlap.
/// </summary>
internal sealed class ProjectStatistics
{
    private const int MaxExamples = 5;
    private readonly object _lock = new();

    // Plain arrays and lazily made collections: in a fresh MSBuild node every generic collection over a value
    // type costs its methods' JIT on the first Copy call (measured: a sorted dictionary of counts alone was
    // about 3 ms of it).
    private readonly int[] _copiedBecause = new int[32];
    private List<string>? _notClonedExamples;
    private HashSet<string>? _crossVolumeSourceDirectories;

    public int Cloned { get; private set; }

    public long BytesNotWritten { get; private set; }

    public int Copied { get; private set; }

    public long BytesCopied { get; private set; }

    public int UpToDate { get; private set; }

    public int Linked { get; private set; }

    /// <summary>Of <see cref="Cloned"/>, those made where a hard or symbolic link was asked for (CloneCopyClonesInsteadOfLinks).</summary>
    public int ClonedInsteadOfLinks { get; private set; }

    public int Failed { get; private set; }

    public double Seconds { get; private set; }

    /// <summary>Non-empty files that were copied although a clone was wanted (for the CI guard).</summary>
    public int NotCloned { get; private set; }

    /// <summary>
    /// Whether these copies ran with CloneCopyAtomicReplace on: the summary says so, since the switch changes what a
    /// reader of the outputs can see while a build runs, and a log shows settings nowhere else.
    /// </summary>
    public bool AtomicReplace { get; private set; }

    public bool DidAnything => Cloned + Copied + Linked + Failed + UpToDate > 0;

    public void MarkAtomicReplace()
    {
        lock (_lock)
        {
            AtomicReplace = true;
        }
    }

    public void Add(CopyPair pair, PairOutcome outcome)
    {
        lock (_lock)
        {
            switch (outcome.Result)
            {
                case PairResult.Transferred when outcome.Transfer.Method == TransferMethod.Cloned:
                    Cloned++;
                    BytesNotWritten += outcome.Transfer.Bytes;
                    break;
                case PairResult.Transferred:
                    Copied++;
                    BytesCopied += outcome.Transfer.Bytes;
                    _copiedBecause[(int)outcome.Transfer.Reason]++;
                    // Not counted against the CI guard: an empty file has nothing to share, and where CopyFile was
                    // seen to clone on the volume (Windows from the Moment 5 update, ReFS and Dev Drive), it cloned.
                    if (outcome.Transfer.Reason is not (NotClonedReason.EmptyFile or NotClonedReason.CopyFileClonesHere))
                    {
                        NotCloned++;
                        _notClonedExamples ??= new List<string>();
                        if (_notClonedExamples.Count < MaxExamples)
                        {
                            _notClonedExamples.Add(CloneCopyText.Format(CloneCopyText.NotClonedExample, pair.DestinationFullPath ?? pair.DestinationSpec, OutcomeText.Reason(outcome.Transfer.Reason)));
                        }
                    }

                    if (outcome.Transfer.Reason == NotClonedReason.DifferentVolumes)
                    {
                        _crossVolumeSourceDirectories ??= new HashSet<string>(MSBuildPlatformRules.PathComparer);
                        if (_crossVolumeSourceDirectories.Count < 64)
                        {
                            _crossVolumeSourceDirectories.Add(Path.GetDirectoryName(pair.SourceFullPath ?? pair.SourceSpec) ?? string.Empty);
                        }
                    }

                    break;
                case PairResult.ClonedInsteadOfLink:
                    Cloned++;
                    ClonedInsteadOfLinks++;
                    BytesNotWritten += outcome.Transfer.Bytes;
                    break;
                case PairResult.HardLinked or PairResult.SymbolicLinked:
                    Linked++;
                    break;
                case PairResult.UpToDate:
                    UpToDate++;
                    break;
                case PairResult.Failed:
                    Failed++;
                    break;
            }
        }
    }

    /// <summary>Adds another Copy call's statistics into this project's.</summary>
    public void Merge(ProjectStatistics other)
    {
        lock (_lock)
        {
            lock (other._lock)
            {
                Cloned += other.Cloned;
                BytesNotWritten += other.BytesNotWritten;
                Copied += other.Copied;
                BytesCopied += other.BytesCopied;
                UpToDate += other.UpToDate;
                Linked += other.Linked;
                ClonedInsteadOfLinks += other.ClonedInsteadOfLinks;
                Failed += other.Failed;
                Seconds += other.Seconds;
                NotCloned += other.NotCloned;
                AtomicReplace |= other.AtomicReplace;
                for (int i = 0; i < _copiedBecause.Length; i++)
                {
                    _copiedBecause[i] += other._copiedBecause[i];
                }

                foreach (string example in other._notClonedExamples ?? [])
                {
                    _notClonedExamples ??= new List<string>();
                    if (_notClonedExamples.Count < MaxExamples)
                    {
                        _notClonedExamples.Add(example);
                    }
                }

                if (other._crossVolumeSourceDirectories is not null)
                {
                    _crossVolumeSourceDirectories ??= new HashSet<string>(MSBuildPlatformRules.PathComparer);
                    _crossVolumeSourceDirectories.UnionWith(other._crossVolumeSourceDirectories);
                }
            }
        }
    }

    public void AddTime(double seconds)
    {
        lock (_lock)
        {
            Seconds += seconds;
        }
    }

    public IReadOnlyList<string> NotClonedExamples()
    {
        lock (_lock)
        {
            return _notClonedExamples?.ToArray() ?? [];
        }
    }

    public IReadOnlyCollection<string> CrossVolumeSourceDirectories()
    {
        lock (_lock)
        {
            return _crossVolumeSourceDirectories is null ? [] : new List<string>(_crossVolumeSourceDirectories);
        }
    }

    /// <summary>"412 files cloned (1.3 GB not written), 3 copied (different volumes: 3), 57 up to date", and ", atomic replace on" where it was.</summary>
    public string Describe()
    {
        lock (_lock)
        {
            string inPlaceOfLinks = ClonedInsteadOfLinks > 0 ? CloneCopyText.Format(CloneCopyText.StatisticsInPlaceOfLinks, ClonedInsteadOfLinks) : string.Empty;
            var parts = new List<string> { CloneCopyText.Format(Cloned == 1 ? CloneCopyText.StatisticsClonedOne : CloneCopyText.StatisticsClonedMany, Cloned, SizeText.Format(BytesNotWritten), inPlaceOfLinks) };
            if (Copied > 0)
            {
                var reasons = new List<string>();
                for (int i = 0; i < _copiedBecause.Length; i++)
                {
                    if (_copiedBecause[i] > 0)
                    {
                        reasons.Add(CloneCopyText.Format(CloneCopyText.StatisticsReasonCount, OutcomeText.Reason((NotClonedReason)i), _copiedBecause[i]));
                    }
                }

                reasons.Sort(System.StringComparer.Ordinal);

                parts.Add(CloneCopyText.Format(CloneCopyText.StatisticsCopied, Copied, string.Join(", ", reasons)));
            }

            if (Linked > 0)
            {
                parts.Add(CloneCopyText.Format(CloneCopyText.StatisticsLinked, Linked));
            }

            if (UpToDate > 0)
            {
                parts.Add(CloneCopyText.Format(CloneCopyText.StatisticsUpToDate, UpToDate));
            }

            if (Failed > 0)
            {
                parts.Add(CloneCopyText.Format(CloneCopyText.StatisticsFailed, Failed));
            }

            if (AtomicReplace)
            {
                parts.Add(CloneCopyText.StatisticsAtomicReplace);
            }

            return string.Join(", ", parts);
        }
    }
}
