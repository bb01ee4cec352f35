using System;
using CloneCopy.Engine;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Hands the project's CloneCopy properties to the Copy tasks of this project configuration, in all its requests
/// (Copy is called by MSBuild's own targets, with MSBuild's parameters only; <see cref="ProjectSettings"/>). Runs
/// first in a configuration's first request (Sdk.targets' InitialTargets), and only when a setting is on. CloneCopyRequireClones reaches the build's transfer chains
/// (<see cref="BuildVerdicts.ClonesMustBeKnown"/>): with the CI guard on, CloneCopy clones what it can itself.
/// </summary>
#if CLONECOPY_MULTITHREADED
// Runs in MSBuild's process under -mt, beside the Copy calls whose statistics it reads (see Copy.MultiThreaded.cs).
[MSBuildMultiThreadableTask]
#endif
public sealed class CloneCopySettings : Microsoft.Build.Utilities.Task
{
    /// <summary>$(CloneCopyClonesInsteadOfLinks): "true" to clone where MSBuild's targets ask for links and the pair can clone.</summary>
    public string? ClonesInsteadOfLinks { get; set; }

    /// <summary>$(CloneCopyRequireClones): the CI guard's setting (an unknown value is CloneCopySummary's to report).</summary>
    public string? RequireClones { get; set; }

    /// <summary>$(CloneCopyVerifyClones): "true" to read back and compare every clone, not only the first per volume.</summary>
    public string? VerifyClones { get; set; }

    /// <summary>$(CloneCopyAtomicReplace): "true" to replace existing destinations by a rename of a finished file, never delete them first.</summary>
    public string? AtomicReplace { get; set; }

    public override bool Execute()
    {
        if (RequireClonesSetting.TryParse(RequireClones, out RequireClonesMode guard) && guard != RequireClonesMode.Off
            && BuildScoped.GetOrCreate(BuildEngine, Copy.VolumeVerdictsKey, () => new BuildVerdicts()) is { } verdicts)
        {
            verdicts.ClonesMustBeKnown = true;
        }

        if (string.Equals(VerifyClones?.Trim(), "true", StringComparison.OrdinalIgnoreCase)
            && BuildScoped.GetOrCreate(BuildEngine, Copy.VolumeVerdictsKey, () => new BuildVerdicts()) is { } verifying)
        {
            verifying.VerifyClones = true;
        }

        bool clonesInsteadOfLinks = string.Equals(ClonesInsteadOfLinks?.Trim(), "true", StringComparison.OrdinalIgnoreCase);
        bool atomicReplace = string.Equals(AtomicReplace?.Trim(), "true", StringComparison.OrdinalIgnoreCase);
        if (atomicReplace && BuildScoped.GetOrCreate(BuildEngine, Copy.VolumeVerdictsKey, () => new BuildVerdicts()) is { } asked)
        {
            asked.AtomicReplaceAsked = true;
        }

        // For the configuration, not this request: an initial target runs in a configuration's first request only.
        if ((clonesInsteadOfLinks || atomicReplace)
            && ProjectBuildIdentity.Identify(BuildEngine, CloneCopyText.IdentifyingSettings, out int configuration) is not null
            && ProjectSettings.For(BuildEngine, configuration) is { } settings)
        {
            settings.ClonesInsteadOfLinks = clonesInsteadOfLinks;
            settings.AtomicReplace = atomicReplace;
        }

        return true;
    }
}
