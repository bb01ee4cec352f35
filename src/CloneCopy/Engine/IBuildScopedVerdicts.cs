using System.Threading;

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

/// <summary>
/// The object each Copy task of one build hands its transfer chain (<see cref="IBuildScopedVerdicts.UseVerdictsOf"/>):
/// registered with MSBuild's Build lifetime, one per build and node. A new one means a new build; it also carries
/// what the projects of this build asked of the chain.
/// </summary>
internal sealed class BuildVerdicts
{
    private volatile bool _clonesMustBeKnown;
    private volatile bool _verifyClones;
    private volatile bool _atomicReplaceAsked;
    private int _abandonedReplacementsLooked;

    /// <summary>
    /// Set when a project of this build on this node asked for the CI guard (CloneCopyRequireClones): a file that can
    /// be cloned is then cloned by CloneCopy itself, never left to a platform copy that is only believed to clone
    /// (Windows' CopyFile on a volume where it was seen to clone), so that what the guard counts is known.
    /// </summary>
    public bool ClonesMustBeKnown
    {
        get => _clonesMustBeKnown;
        set => _clonesMustBeKnown = value;
    }

    /// <summary>
    /// Set when a project of this build on this node asked for CloneCopyVerifyClones: every clone is read back whole and
    /// compared with its source (<see cref="CloneVerifier{TVolume}"/>), not only the first per volume.
    /// </summary>
    public bool VerifyClones
    {
        get => _verifyClones;
        set => _verifyClones = value;
    }

    /// <summary>
    /// Set when a project of this build on this node asked for CloneCopyAtomicReplace: only then does a Copy ask which
    /// project build it runs in (a logged event) to read that project's setting. Builds without it never ask.
    /// </summary>
    public bool AtomicReplaceAsked
    {
        get => _atomicReplaceAsked;
        set => _atomicReplaceAsked = value;
    }

    /// <summary>
    /// True for the first Copy of this build on this node to ask, false for every later one: that Copy looks once for
    /// the temporary files of killed atomic replaces (<see cref="AbandonedReplacements"/>), whatever this build's settings.
    /// </summary>
    public bool FirstToLookForAbandonedReplacements() => Interlocked.Exchange(ref _abandonedReplacementsLooked, 1) == 0;
}
