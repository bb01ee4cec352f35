using System.Globalization;

namespace CloneCopy;

/// <summary>Byte counts for people.</summary>
internal static class SizeText
{
    /// <summary>
    /// Binary units, one decimal: "1.3 GB" in the log means 1.3 GiB. A negative count (clonecopy-compare's disk
    /// deltas, which compile this file in too) keeps its sign.
    /// </summary>
    public static string Format(long bytes)
    {
        string[] units = ["B", "KB", "MB", "GB", "TB"];
        double value = System.Math.Abs((double)bytes);
        int unit = 0;
        while (value >= 1024 && unit < units.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return unit == 0 ? $"{bytes} B" : (bytes < 0 ? "-" : string.Empty) + value.ToString("0.0", CultureInfo.InvariantCulture) + " " + units[unit];
    }
}
