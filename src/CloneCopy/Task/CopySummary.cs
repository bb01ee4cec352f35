using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using CloneCopy.Engine;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

namespace CloneCopy;

/// <summary>Counts what one Copy call did and says it in one normal-importance line.</summary>
internal sealed class CopySummary
{
    private readonly SortedDictionary<string, int> _copiedBecause = new();
    private int _cloned;
    private long _bytesNotWritten;
    private int _copied;
    private int _upToDate;
    private int _linked;
    private int _failed;

    public void Add(PairOutcome outcome)
    {
        switch (outcome.Result)
        {
            case PairResult.Transferred when outcome.Transfer.Method == TransferMethod.Cloned:
                _cloned++;
                _bytesNotWritten += outcome.Transfer.Bytes;
                break;
            case PairResult.Transferred:
                _copied++;
                string reason = OutcomeText.Reason(outcome.Transfer.Reason);
                _copiedBecause[reason] = _copiedBecause.TryGetValue(reason, out int n) ? n + 1 : 1;
                break;
            case PairResult.HardLinked or PairResult.SymbolicLinked:
                _linked++;
                break;
            case PairResult.UpToDate:
                _upToDate++;
                break;
            case PairResult.Failed:
                _failed++;
                break;
        }
    }

    public void Log(TaskLoggingHelper log)
    {
        if (_cloned + _copied + _linked + _failed == 0)
        {
            return; // nothing was written: stay quiet, as the built-in task does
        }

        var parts = new List<string>
        {
            $"{_cloned} {Files(_cloned)} cloned ({Size(_bytesNotWritten)} not written)",
        };
        if (_copied > 0)
        {
            parts.Add($"{_copied} copied ({string.Join(", ", _copiedBecause.Select(kv => $"{kv.Key}: {kv.Value}"))})");
        }

        if (_linked > 0)
        {
            parts.Add($"{_linked} linked");
        }

        if (_upToDate > 0)
        {
            parts.Add($"{_upToDate} up to date");
        }

        if (_failed > 0)
        {
            parts.Add($"{_failed} failed");
        }

        TaskLog.Message(log, MessageImportance.Normal, "CloneCopy: " + string.Join(", ", parts));
    }

    private static string Files(int count) => count == 1 ? "file" : "files";

    /// <summary>Bytes in binary units, one decimal: "1.3 GB" in the log means 1.3 GiB.</summary>
    public static string Size(long bytes)
    {
        string[] units = ["B", "KB", "MB", "GB", "TB"];
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return unit == 0 ? $"{bytes} B" : value.ToString("0.0", CultureInfo.InvariantCulture) + " " + units[unit];
    }
}
