namespace CloneCopy;

/// <summary>
/// The messages Copy logs, with MSBuild's codes. The codes and the wording of MSBuild's own Copy are kept
/// because people and tools search build logs for them (the terminal logger special-cases MSB3026).
/// </summary>
internal static class CopyMessages
{
    public const string RetryCountInvalid = "MSB3028";
    public const string RetryDelayInvalid = "MSB3029";
    public const string NoDestination = "MSB3023";
    public const string BothDestinations = "MSB3022";
    public const string SourceFoldersWithDestinationFiles = "MSB3896";
    public const string CountMismatch = "MSB3094";
    public const string ErrorIfLinkFailsWithoutLink = "MSB3892";
    public const string DestinationIsDirectory = "MSB3024";
    public const string SourceIsDirectory = "MSB3025";
    public const string SourceNotFound = "MSB3030";
    public const string RetryingAfterFailure = "MSB3026";
    public const string RetriesExhausted = "MSB3027";
    public const string CopyFailed = "MSB3021";
    public const string LinkFailedAndRequired = "MSB3893";

    public static string RetryCountInvalidText(int retries) => $"{retries} is an invalid retry count. Value must not be negative.";

    public static string RetryDelayInvalidText(int delay) => $"{delay} is an invalid retry delay. Value must not be negative.";

    public const string NoDestinationText = "No destination specified for Copy. Please supply either \"DestinationFiles\" or \"DestinationFolder\".";

    public const string BothDestinationsText = "Both \"DestinationFiles\" and \"DestinationFolder\" were specified as input parameters in the project file. Please choose one or the other.";

    public const string SourceFoldersWithDestinationFilesText = "Both \"SourceFolders\" and \"DestinationFiles\" were specified as parameters in the project file but cannot be used together. Please choose one or the other.";

    public static string CountMismatchText(int destinations, int sources) =>
        $"\"DestinationFiles\" refers to {destinations} item(s), and \"SourceFiles\" refers to {sources} item(s). They must have the same number of items.";

    public const string ErrorIfLinkFailsWithoutLinkText = "ErrorIfLinkFails requires UseHardlinksIfPossible or UseSymbolicLinksIfPossible to be set.";

    public static string DestinationIsDirectoryText(string source, string destination) =>
        $"Could not copy the file \"{source}\" to the destination file \"{destination}\", because the destination is a folder instead of a file. To copy the source file into a folder, consider using the DestinationFolder parameter instead of DestinationFiles.";

    public static string SourceIsDirectoryText(string source) =>
        $"The source file \"{source}\" is actually a directory.  The \"Copy\" task does not support copying directories.";

    public static string SourceNotFoundText(string source) => $"Could not copy the file \"{source}\" because it was not found.";

    public static string RetryingText(string source, string destination, int attempt, int delay, string reason) =>
        $"Could not copy \"{source}\" to \"{destination}\". Beginning retry {attempt} in {delay}ms. {reason} ";

    public static string RetriesExhaustedText(string source, string destination, int retries) =>
        $"Could not copy \"{source}\" to \"{destination}\". Exceeded retry count of {retries}. Failed. ";

    public static string CopyFailedText(string source, string destination, string reason) =>
        $"Unable to copy file \"{source}\" to \"{destination}\". {reason}";

    public static string LinkFailedAndRequiredText(string source, string destination) =>
        $"Could not use a link to copy \"{source}\" to \"{destination}\".";

    public static string CopyingText(string source, string destination) => $"Copying file from \"{source}\" to \"{destination}\".";

    public static string CreatingDirectoryText(string directory) => $"Creating directory \"{directory}\".";

    public static string RemovingReadOnlyText(string destination) => $"Removing read-only attribute from \"{destination}\".";

    public static string UpToDateText(string source, string destination) =>
        $"Did not copy from file \"{source}\" to file \"{destination}\" because the \"SkipUnchangedFiles\" parameter was set to \"true\" in the project and the files' sizes and timestamps match.";

    public static string CreatingHardLinkText(string source, string destination) => $"Creating hard link to copy \"{source}\" to \"{destination}\".";

    public static string CreatingSymbolicLinkText(string source, string destination) => $"Creating symbolic link to copy \"{source}\" to \"{destination}\".";

    public static string LinkFellBackToCopyText(string source, string destination, string reason) =>
        $"Could not use a link to copy \"{source}\" to \"{destination}\". Copying the file instead. {reason}";

    public static string HardLinkFellBackToSymbolicText(string source, string destination, string reason) =>
        $"Could not use a hard link to copy \"{source}\" to \"{destination}\". Copying the file with symbolic link instead. {reason}";
}
