using System;
using System.Globalization;

namespace CloneCopy;

/// <summary>
/// The process that made a temporary file of CloneCopyAtomicReplace: its process id and a random instance number drawn
/// when CloneCopy is first used in it. The id alone does not tell a process: a killed build's id is given to a later
/// process (in a container the same ids come back run after run), and a process with the same id may be alive in
/// another PID namespace. The two together name one process, in the temporary files' names
/// (<c>.clonecopy-&lt;id&gt;-&lt;instance&gt;-&lt;n&gt;.tmp</c>) and in its record of where it makes them
/// (<see cref="ReplacementJournal"/>), whose lock says whether it is still running.
/// </summary>
internal readonly record struct ReplacementOwner(int ProcessId, string? Instance)
{
    /// <summary>This process.</summary>
    public static ReplacementOwner Current { get; } = new(CurrentProcessId(), NewInstance());

    /// <summary>"&lt;id&gt;-&lt;instance&gt;": how the owner is written in file names.</summary>
    public override string ToString() =>
        Instance is null ? ProcessId.ToString(CultureInfo.InvariantCulture) : ProcessId.ToString(CultureInfo.InvariantCulture) + "-" + Instance;

    /// <summary>Reads exactly "&lt;id&gt;-&lt;instance&gt;" (a record's name without its ending).</summary>
    public static bool TryParse(string text, out ReplacementOwner owner) =>
        TryRead(text + "-", 0, out owner, out int rest) && owner.Instance is not null && rest == text.Length + 1;

    /// <summary>
    /// Reads "&lt;id&gt;-&lt;instance&gt;-" (or, from CloneCopy before instances, "&lt;id&gt;-", Instance null) at the
    /// start of <paramref name="text"/>; <paramref name="rest"/> is what follows the owner's last dash (the caller
    /// checks it: the pre-instance form is told from a user's own name only by the number that follows).
    /// </summary>
    public static bool TryRead(string text, int start, out ReplacementOwner owner, out int rest)
    {
        owner = default;
        rest = start;
        int id = ReadDigits(text, start, out int end);
        if (id < 0 || end >= text.Length || text[end] != '-')
        {
            return false;
        }

        int instanceEnd = end + 1;
        while (instanceEnd < text.Length && IsLowercaseHex(text[instanceEnd]))
        {
            instanceEnd++;
        }

        bool hasInstance = instanceEnd - end - 1 == InstanceLength && instanceEnd < text.Length && text[instanceEnd] == '-';
        owner = new ReplacementOwner(id, hasInstance ? text.Substring(end + 1, InstanceLength) : null);
        rest = hasInstance ? instanceEnd + 1 : end + 1;
        return true;
    }

    private const int InstanceLength = 8;

    /// <summary>A digit of an instance, or of a temporary file's number: lowercase hexadecimal.</summary>
    internal static bool IsLowercaseHex(char c) => c is (>= '0' and <= '9') or (>= 'a' and <= 'f');

    /// <summary>The decimal number at <paramref name="start"/> (at most int.MaxValue), or -1.</summary>
    private static int ReadDigits(string text, int start, out int end)
    {
        long value = 0;
        end = start;
        while (end < text.Length && text[end] is >= '0' and <= '9' && value <= int.MaxValue)
        {
            value = (value * 10) + (text[end] - '0');
            end++;
        }

        return end > start && value <= int.MaxValue ? (int)value : -1;
    }

    private static string NewInstance()
    {
        var bytes = new byte[InstanceLength / 2];
#if NET
        System.Security.Cryptography.RandomNumberGenerator.Fill(bytes);
#else
        using (var random = System.Security.Cryptography.RandomNumberGenerator.Create())
        {
            random.GetBytes(bytes);
        }
#endif
        return BitConverter.ToUInt32(bytes, 0).ToString("x8", CultureInfo.InvariantCulture);
    }

    private static int CurrentProcessId()
    {
#if NET
        return Environment.ProcessId;
#else
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.Id;
#endif
    }
}
