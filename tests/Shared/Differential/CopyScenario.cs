using System;
using System.Collections.Generic;

namespace CloneCopy.Tests.Differential;

/// <summary>One situation both Copy tasks are put in.</summary>
public sealed class CopyScenario
{
    public CopyScenario(string name, CopyParameters parameters)
    {
        Name = name;
        Parameters = parameters;
    }

    public string Name { get; }

    public CopyParameters Parameters { get; }

    /// <summary>True: the tree starts empty instead of as the standard tree (generated cases bring their own).</summary>
    public bool StartsEmpty { get; init; }

    /// <summary>Changes to the standard tree before the copy.</summary>
    public Action<ScenarioTree>? Arrange { get; init; }

    /// <summary>
    /// A second build: after the first Copy, <see cref="BetweenRuns"/> changes the tree (a source edited),
    /// then a new task of the same kind runs with these parameters; both runs are compared.
    /// </summary>
    public CopyParameters? SecondRun { get; init; }

    public Action<ScenarioTree>? BetweenRuns { get; init; }

    /// <summary>
    /// Something held only while each task runs (a file another handle keeps open without sharing, a disk
    /// filled to the brim), released right after; null for nothing.
    /// </summary>
    public Func<ScenarioTree, IDisposable>? WhileCopying { get; init; }

    /// <summary>
    /// A place where CloneCopy deliberately differs from MSBuild's Copy (listed in the README): this checks
    /// CloneCopy's documented behaviour on its tree; the trees are still compared everywhere but the entries
    /// <see cref="DifferingPaths"/> names, and the outputs and events are compared unless <see cref="OutputsDiffer"/>.
    /// </summary>
    public Action<ScenarioTree>? IntendedDifference { get; init; }

    /// <summary>
    /// With <see cref="IntendedDifference"/>: the entries the documented difference is about, as regular
    /// expressions for their paths relative to the tree ("out/big\.bin"; a tree snapshot also lists what it
    /// reaches through a symbolic link to a folder). Everything else in the two trees must still be the same.
    /// </summary>
    public IReadOnlyList<string> DifferingPaths { get; init; } = [];

    /// <summary>With <see cref="IntendedDifference"/>: the difference is that CloneCopy replaces a destination MSBuild writes through (not under MSBUILDCOPYWITHOUTDELETE=1).</summary>
    public bool DifferenceReplacesDestination { get; init; }

    /// <summary>
    /// With <see cref="IntendedDifference"/>: the outputs and events may differ too (MSBuild's Copy fails, or
    /// does something else, where CloneCopy does what it documents). Then CloneCopy must succeed without errors or
    /// warnings, list every destination as copied, give the same DestinationFiles items, and say nothing
    /// MSBuild's Copy did not also say.
    /// </summary>
    public bool OutputsDiffer { get; init; }

    /// <summary>Uses symbolic links, which Wine does not make as Windows does: on Windows only the comparison holds, not the pins.</summary>
    public bool UsesSymbolicLinks { get; init; }

    /// <summary>Environment variables set for both runs (MSBuild's escape hatches).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// What the built-in task is expected to do, so a scenario cannot silently stop testing what its name
    /// says (both tasks failing alike on a typo would otherwise pass). Null: not pinned.
    /// </summary>
    public bool? ExpectSuccess { get; init; }

    /// <summary>
    /// The WroteAtLeastOneFile MSBuild's Copy gives in the first run and in the second (<see cref="SecondRun"/>; for a
    /// scenario without one, Second is not read). Null: not pinned. Held only in a process where no switch changes
    /// what Copy does (the comparison with CloneCopy's value holds everywhere).
    /// </summary>
    public (bool First, bool Second)? ExpectWroteAtLeastOneFile { get; init; }

    /// <summary>The error and warning codes expected, sorted and comma-separated ("" for none). Null: not pinned.</summary>
    public string? ExpectErrorCodes { get; init; }

    public string? ExpectWarningCodes { get; init; }

    /// <summary>Only on Unix (modes, dot-files), only on Windows (attributes), or everywhere (null).</summary>
    public bool? UnixOnly { get; init; }

    /// <summary>Only on Linux: named pipes fed by a writer, /proc files (left out under Wine and on macOS).</summary>
    public bool LinuxOnly { get; init; }

    public bool AppliesHere => (UnixOnly is not bool unix || unix != OperatingSystem.IsWindows()) && (!LinuxOnly || OperatingSystem.IsLinux());

    public override string ToString() => Name;
}
