using System;

namespace CloneCopy;

/// <summary>The points of an atomic replace a test may stop at (a process killed there must leave nothing a later Copy does not remove).</summary>
internal enum AtomicReplaceStep
{
    /// <summary>The replacement file is complete under its temporary name; the rename has not happened.</summary>
    Written,
}

/// <summary>
/// A test's hook into CloneCopyAtomicReplace: called at each <see cref="AtomicReplaceStep"/> with the replacement's path.
/// Null in every build (one field read per replaced file).
/// </summary>
internal static class AtomicReplaceHooks
{
    public static Action<AtomicReplaceStep, string>? OnStep { get; set; }

    public static void Reached(AtomicReplaceStep step, string replacementPath) => OnStep?.Invoke(step, replacementPath);

    /// <summary>
    /// A test's stand-in for a filesystem where flock fails without a word (NFS without a lock manager): the process runs
    /// with .NET's locks switched off (DOTNET_SYSTEM_IO_DISABLEFILELOCKING=1), so its opens lock nothing, and CloneCopy
    /// is not told, so it keeps a record as if locked. Set before CloneCopy's first Copy in the process; false in every build.
    /// </summary>
    public static bool LockSwitchUnseen { get; set; }
}
