namespace CloneCopy.Engine;

/// <summary>
/// A transfer chain whose verdicts about volumes can change between builds on a reused MSBuild node: a
/// BitLocker volume unlocked, a Dev Drive VHD attached, a subst drive pointed elsewhere. The task hands it
/// one object per build (registered with MSBuild's Build lifetime); a new object means a new build, and
/// everything learnt about volumes is forgotten and asked again.
/// </summary>
internal interface IBuildScopedVerdicts
{
    /// <summary>Called by every Copy task with its build's object; cheap when the build is the same.</summary>
    void UseVerdictsOf(object build);
}
