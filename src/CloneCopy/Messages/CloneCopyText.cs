using System.Globalization;
using System.Resources;

// CloneCopy's texts are written in English: no satellite assembly is looked for when the UI culture is English.
[assembly: NeutralResourcesLanguage("en")]

namespace CloneCopy;

/// <summary>
/// CloneCopy's own texts, from Messages/CloneCopyTexts.resx (one property per entry, named as the entry), in
/// the UI culture MSBuild runs under where a translation exists, else English. <see cref="Format"/> fills one in
/// with the current culture, as string interpolation did.
/// </summary>
internal static class CloneCopyText
{
    private static readonly ResourceManager Resources = new("CloneCopy.Messages.CloneCopyTexts", typeof(CloneCopyText).Assembly);

    public static string OutcomeCloned => Get(nameof(OutcomeCloned));

    public static string OutcomeKernelCopied => Get(nameof(OutcomeKernelCopied));

    public static string OutcomeCopied => Get(nameof(OutcomeCopied));

    public static string ClonedInPlaceOfHardLink => Get(nameof(ClonedInPlaceOfHardLink));

    public static string ClonedInPlaceOfSymbolicLink => Get(nameof(ClonedInPlaceOfSymbolicLink));

    public static string SameFileByAnotherPath => Get(nameof(SameFileByAnotherPath));

    public static string ReasonEmptyFile => Get(nameof(ReasonEmptyFile));

    public static string ReasonSizeNotKnownInAdvance => Get(nameof(ReasonSizeNotKnownInAdvance));

    public static string ReasonFilesystemCannotClone => Get(nameof(ReasonFilesystemCannotClone));

    public static string ReasonDifferentVolumes => Get(nameof(ReasonDifferentVolumes));

    public static string ReasonRefusedForThisFile => Get(nameof(ReasonRefusedForThisFile));

    public static string ReasonNoClonePathOnPlatform => Get(nameof(ReasonNoClonePathOnPlatform));

    public static string ReasonLinkLimit => Get(nameof(ReasonLinkLimit));

    public static string ReasonCloningDisabled => Get(nameof(ReasonCloningDisabled));

    public static string ReasonDestinationKept => Get(nameof(ReasonDestinationKept));

    public static string ReasonCopyFileClonesHere => Get(nameof(ReasonCopyFileClonesHere));

    public static string ReasonCarriesMoreThanData => Get(nameof(ReasonCarriesMoreThanData));

    public static string ReasonSourceSharingViolation => Get(nameof(ReasonSourceSharingViolation));

    public static string ReasonIntegrityStreamsDiffer => Get(nameof(ReasonIntegrityStreamsDiffer));

    public static string ReasonNamesAStream => Get(nameof(ReasonNamesAStream));

    public static string ReasonCopyFileCopiedWhenAsked => Get(nameof(ReasonCopyFileCopiedWhenAsked));

    public static string ReasonIntegrityStreamsCannotBeGiven => Get(nameof(ReasonIntegrityStreamsCannotBeGiven));

    public static string ReasonVolumeRefusesClones => Get(nameof(ReasonVolumeRefusesClones));

    public static string ReasonCloneReadBackDiffered => Get(nameof(ReasonCloneReadBackDiffered));

    public static string ReasonNone => Get(nameof(ReasonNone));

    public static string SummaryLine => Get(nameof(SummaryLine));

    public static string SummaryStage => Get(nameof(SummaryStage));

    public static string SummaryProject => Get(nameof(SummaryProject));

    public static string SummaryAfterStage => Get(nameof(SummaryAfterStage));

    public static string StatisticsClonedOne => Get(nameof(StatisticsClonedOne));

    public static string StatisticsClonedMany => Get(nameof(StatisticsClonedMany));

    public static string StatisticsInPlaceOfLinks => Get(nameof(StatisticsInPlaceOfLinks));

    public static string StatisticsCopied => Get(nameof(StatisticsCopied));

    public static string StatisticsReasonCount => Get(nameof(StatisticsReasonCount));

    public static string StatisticsLinked => Get(nameof(StatisticsLinked));

    public static string StatisticsUpToDate => Get(nameof(StatisticsUpToDate));

    public static string StatisticsFailed => Get(nameof(StatisticsFailed));

    public static string StatisticsAtomicReplace => Get(nameof(StatisticsAtomicReplace));

    public static string NotClonedExample => Get(nameof(NotClonedExample));

    public static string CloningUnavailable => Get(nameof(CloningUnavailable));

    public static string VolumeProbeFailed => Get(nameof(VolumeProbeFailed));

    public static string LinkLimitReached => Get(nameof(LinkLimitReached));

    public static string CloneReadBackDiffered => Get(nameof(CloneReadBackDiffered));

    public static string InvalidRequireClones => Get(nameof(InvalidRequireClones));

    public static string PackageCacheOnAnotherVolume => Get(nameof(PackageCacheOnAnotherVolume));

    public static string GuardCopiedOne => Get(nameof(GuardCopiedOne));

    public static string GuardCopiedMany => Get(nameof(GuardCopiedMany));

    public static string GuardCouldNotRun => Get(nameof(GuardCouldNotRun));

    public static string GuardThisProject => Get(nameof(GuardThisProject));

    public static string IdentifyingSummary => Get(nameof(IdentifyingSummary));

    public static string IdentifyingLinks => Get(nameof(IdentifyingLinks));

    public static string IdentifyingSettings => Get(nameof(IdentifyingSettings));

    public static string IdentifyingStage => Get(nameof(IdentifyingStage));

    public static string Format(string format, params object?[] arguments) => string.Format(CultureInfo.CurrentCulture, format, arguments);

    private static string Get(string name) => Resources.GetString(name, CultureInfo.CurrentUICulture) ?? name;
}
