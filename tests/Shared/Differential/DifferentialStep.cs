using System;

namespace CloneCopy.Tests.Differential;

/// <summary>The steps of a differential comparison, named in its failures.</summary>
public enum DifferentialStep
{
    /// <summary>Making a tree, or changing it between two runs.</summary>
    TreeCreation,

    /// <summary>One task's run (setting it up, its Execute, reading its outputs).</summary>
    Run,

    Snapshot,
    Comparison,
    CleanUp,

    /// <summary>The generated runner's search for a smaller case that still differs.</summary>
    Shrinking,
}

/// <summary>
/// An exception from a step of the differential runner, with the step and the side it worked for ("MSBuild's
/// Copy", "CloneCopy"). <see cref="ThrownByTask"/>: the task's own Execute threw, which is that task's behaviour
/// (MSBuild fails the build with MSB4018); otherwise the harness failed, which says nothing about either task.
/// </summary>
public sealed class DifferentialStepException : Exception
{
    public DifferentialStepException(DifferentialStep step, string side, bool thrownByTask, Exception inner)
        : base(thrownByTask
            ? $"{side}'s Execute threw (step: {Name(step)}): {inner.GetType().FullName}: {inner.Message}"
            : $"the harness failed (step: {Name(step)}, for {side}): {inner.GetType().FullName}: {inner.Message}", inner)
    {
        Step = step;
        Side = side;
        ThrownByTask = thrownByTask;
    }

    public DifferentialStep Step { get; }

    public string Side { get; }

    public bool ThrownByTask { get; }

    public static string Name(DifferentialStep step) => step switch
    {
        DifferentialStep.TreeCreation => "tree creation",
        DifferentialStep.CleanUp => "clean-up",
        _ => step.ToString().ToLowerInvariant(),
    };
}
