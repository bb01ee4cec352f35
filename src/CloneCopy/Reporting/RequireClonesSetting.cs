using System;

namespace CloneCopy;

/// <summary>What $(CloneCopyRequireClones) asks for.</summary>
internal enum RequireClonesMode
{
    Off,
    Warning,
    Error,
}

/// <summary>
/// The values $(CloneCopyRequireClones) may take, and nothing else: empty or "false" (off), "warning",
/// "error", in any letter case. A value outside these (a typo such as "eror") is an error of its own
/// (CLC006), so a guard that was meant to fail CI cannot be switched off by a spelling mistake.
/// </summary>
internal static class RequireClonesSetting
{
    public const string ValidValues = "'error', 'warning', 'false' or empty (off)";

    public static bool TryParse(string? value, out RequireClonesMode mode)
    {
        string text = (value ?? string.Empty).Trim();
        if (text.Length == 0 || text.Equals("false", StringComparison.OrdinalIgnoreCase))
        {
            mode = RequireClonesMode.Off;
            return true;
        }

        if (text.Equals("warning", StringComparison.OrdinalIgnoreCase))
        {
            mode = RequireClonesMode.Warning;
            return true;
        }

        if (text.Equals("error", StringComparison.OrdinalIgnoreCase))
        {
            mode = RequireClonesMode.Error;
            return true;
        }

        mode = RequireClonesMode.Off;
        return false;
    }
}
