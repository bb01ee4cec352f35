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
}
