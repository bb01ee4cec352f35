using System;
using System.Globalization;

namespace CloneCopy.BuildCompare;

/// <summary>Bytes for people, as CloneCopy's own summary writes them (1024-based, one decimal).</summary>
public static class SizeText
{
    public static string Format(long bytes)
    {
        string sign = bytes < 0 ? "-" : string.Empty;
        double value = Math.Abs((double)bytes);
        string[] units = ["B", "KB", "MB", "GB", "TB"];
        int unit = 0;
        while (value >= 1024 && unit < units.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return sign + (unit == 0 ? value.ToString("0", CultureInfo.InvariantCulture) : value.ToString("0.0", CultureInfo.InvariantCulture)) + " " + units[unit];
    }
}
