namespace LibB;

public static class Greeting
{
    public static string ToJson(string name) => Newtonsoft.Json.JsonConvert.SerializeObject(new { hello = name });
}
