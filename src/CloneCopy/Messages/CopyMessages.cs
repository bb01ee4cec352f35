namespace CloneCopy;

/// <summary>
/// The names of MSBuild's Copy messages in its resources (see <see cref="CopyResources"/>). The texts carry
/// MSBuild's codes ("MSB3030: ..."), which people and tools search build logs for (the terminal logger
/// special-cases MSB3026), and MSBuild's help keywords ("MSBuild." + name).
/// </summary>
internal static class CopyMessages
{
    public const string InvalidRetryCount = "Copy.InvalidRetryCount";               // MSB3028
    public const string InvalidRetryDelay = "Copy.InvalidRetryDelay";               // MSB3029
    public const string NeedsDestination = "Copy.NeedsDestination";                 // MSB3023
    public const string ExactlyOneTypeOfDestination = "Copy.ExactlyOneTypeOfDestination"; // MSB3022
    public const string IncompatibleParameters = "Copy.IncompatibleParameters";     // MSB3896
    public const string TwoVectorsMustHaveSameLength = "General.TwoVectorsMustHaveSameLength"; // MSB3094
    public const string ErrorIfLinkFailsSetWithoutLinkOption = "Copy.ErrorIfLinkFailsSetWithoutLinkOption"; // MSB3892
    public const string DestinationIsDirectory = "Copy.DestinationIsDirectory";     // MSB3024
    public const string SourceIsDirectory = "Copy.SourceIsDirectory";               // MSB3025
    public const string SourceFileNotFound = "Copy.SourceFileNotFound";             // MSB3030
    public const string Retrying = "Copy.Retrying";                                 // MSB3026
    public const string ExceededRetries = "Copy.ExceededRetries";                   // MSB3027
    public const string Error = "Copy.Error";                                       // MSB3021
    public const string LinkFailed = "Copy.LinkFailed";                             // MSB3893
    public const string IOException = "Copy.IOException";                           // MSB3894 (MSBUILDALWAYSRETRY)
    public const string RetryingOnAccessDenied = "Copy.RetryingOnAccessDenied";     // MSB3895 (MSBUILDALWAYSRETRY)
    public const string FileComment = "Copy.FileComment";
    public const string CreatesDirectory = "Copy.CreatesDirectory";
    public const string DidNotCopyBecauseOfFileMatch = "Copy.DidNotCopyBecauseOfFileMatch";
    public const string RemovingReadOnlyAttribute = "Copy.RemovingReadOnlyAttribute";
    public const string HardLinkComment = "Copy.HardLinkComment";
    public const string SymbolicLinkComment = "Copy.SymbolicLinkComment";
    public const string RetryingAsFileCopy = "Copy.RetryingAsFileCopy";
    public const string RetryingAsSymbolicLink = "Copy.RetryingAsSymbolicLink";
    public const string NonWindowsLinkErrorMessage = "Copy.NonWindowsLinkErrorMessage";
}
